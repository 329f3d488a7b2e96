"""The InvestPhilBench metrics, computed from a parsed response and its gold program.

Every metric is a pure, deterministic function of a :class:`Case` (the gold
reasoning program, the parsed response, and the item facts a metric needs)
and is registered by name in :data:`ipb.scoring.registry.metrics`. The
embedding-based ones take an injectable encoder (``Case.encoder``); with
none, :func:`ipb.scoring.embeddings.default_encoder` is used.

Inputs
------
*Gold program* (paper §6.3, Appendix E), as ``ExecutionTrace.to_grp()``
writes it::

    {"framework", "gold_program": [{"gate": 1, "name", "verdict",
      "kill_criterion", "required_elements": [...], "kill_triggered",
      "computed_value"}, ...], "investment_verdict", "verdict_trigger"}

*Parsed response* (paper §7.5), as the response parser writes it::

    {"status": "ok" | "parse_failure", "reason", "gates": [{"gate", "name",
      "verdict", "elements", "span"}, ...], "final_verdict",
      "invented_gates", "years", "attributions", "citations", "text"}

Conventions (decided here, where the paper is silent)
-----------------------------------------------------
- Gates are identified by their 1-based card number. A gate the response
  addresses more than once keeps its *first* position (order of first
  mention), its *last* stated verdict and the union of its elements.
- Gold gates the chain did not reach (N/A) are neutral: not required, not
  penalised, not scored (GCF, tau, NED, NLCS, VerdictAcc, GRA, KCCS), unless
  ``Case.full_reconstruction`` asks for the whole framework (sequence metrics).
- ``None`` means *not applicable* (no kill gates, no gold source, not an
  institutional card...) and is excluded from averages; it is never zero.
- A parse failure is never scored: every metric raises
  :class:`~ipb.errors.ScoreError` (rule ``parse_failure``) on one.
- Legacy gold verdict labels are normalised as the paper's schema note says:
  PASS/RANK -> PROCEED, FAIL/FILTER/KILL -> REJECT.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from statistics import median
from typing import Any, Iterable, Mapping, Sequence

import numpy as np
from numpy.typing import NDArray
from rapidfuzz.distance import Levenshtein

from ipb.errors import IpbError, ScoreError
from ipb.scoring.embeddings import Encoder, cosine_matrix, default_encoder, embed
from ipb.scoring.registry import group_metric, metric

__all__ = [
    # verdicts
    "PROCEED",
    "REJECT",
    "INCONCLUSIVE",
    "NOT_APPLICABLE",
    "normalize_verdict",
    "verdict_credit",
    # inputs
    "GoldGate",
    "ResponseGate",
    "SourceRef",
    "CareerBoundary",
    "InvestorProfile",
    "investor_profiles",
    "Case",
    # sequence primitives
    "kendall_tau_b",
    "weighted_kendall_tau",
    "normalized_tau",
    "edit_distance",
    "lcs_length",
    "normalized_edit_distance",
    "normalized_lcs",
    # element matching
    "DEFAULT_CONCEPT_THRESHOLD",
    "DEFAULT_REL_TOL",
    "DEFAULT_APPROX_REL_TOL",
    "PAPER_KCCS_THRESHOLD",
    "Quantity",
    "extract_quantities",
    "comparison_direction",
    "is_negated",
    "ElementMatcher",
    "element_f1",
    "CalibrationResult",
    "calibrate_threshold",
    "prefetch_embeddings",
    # per-response metrics
    "gcf",
    "kendall_tau",
    "tau_n",
    "ogrs",
    "ogrs_k",
    "ned",
    "nlcs",
    "verdict_acc_gates",
    "verdict_acc",
    "GateScore",
    "gra_gates",
    "gra",
    "kccs_gates",
    "kccs",
    "sap_at_k",
    "section_numbers",
    "sap1",
    "sap2",
    "sap3",
    "CKCA_GATES",
    "ckca",
    "contradiction_coverage",
    "investor_matches",
    "split_sentences",
    # group metrics
    "sdi",
    "pairwise_sdi",
    "ivp_table",
    "ivp",
]

# =========================================================================== verdicts

PROCEED = "PROCEED"
REJECT = "REJECT"
INCONCLUSIVE = "INCONCLUSIVE"
#: A gate not reached (chain terminated, off the active branch).
NOT_APPLICABLE = "N/A"

_VERDICT_ALIASES = {
    "PROCEED": PROCEED,
    "PASS": PROCEED,
    "RANK": PROCEED,
    "REJECT": REJECT,
    "FAIL": REJECT,
    "FILTER": REJECT,
    "KILL": REJECT,
    "INCONCLUSIVE": INCONCLUSIVE,
    "N/A": NOT_APPLICABLE,
    "NA": NOT_APPLICABLE,
    "NOT_REACHED": NOT_APPLICABLE,
    "NOT REACHED": NOT_APPLICABLE,
}


def normalize_verdict(value: object) -> str | None:
    """Map a gate verdict label to PROCEED / REJECT / INCONCLUSIVE / N/A.

    Parameters
    ----------
    value : str or None
        A verdict as written in a GRP or by the parser, any case. Legacy GRP
        labels follow the paper's Appendix E schema note: PASS and RANK are
        PROCEED; FAIL, FILTER and KILL are REJECT.

    Returns
    -------
    str or None
        The canonical label, or None for None / an unknown label.

    Examples
    --------
    >>> [normalize_verdict(v) for v in ("pass", "KILL", "n/a", None, "maybe")]
    ['PROCEED', 'REJECT', 'N/A', None, None]
    """
    if value is None:
        return None
    return _VERDICT_ALIASES.get(str(value).strip().upper())


def verdict_credit(gold: str | None, predicted: str | None) -> float:
    """Credit for one gate verdict under the INCONCLUSIVE rule of §7.3.

    When the gold verdict is INCONCLUSIVE, a model INCONCLUSIVE earns 1.0 and a
    committed PROCEED or REJECT earns 0.5 ("penalising a calibrated PROCEED or
    REJECT equally mischaracterises either as a failure of reasoning"). Any
    other gold verdict needs an exact match (1.0, else 0.0). A missing
    verdict earns 0.0.

    Parameters
    ----------
    gold, predicted : str or None
        Verdict labels (normalised with :func:`normalize_verdict`).

    Returns
    -------
    float
        0.0, 0.5 or 1.0.

    References
    ----------
    InvestPhilBench §7.3 "INCONCLUSIVE handling in OGRS scoring"; §7.13 (L7).

    Examples
    --------
    >>> verdict_credit("INCONCLUSIVE", "INCONCLUSIVE"), verdict_credit("INCONCLUSIVE", "REJECT")
    (1.0, 0.5)
    >>> verdict_credit("PROCEED", "REJECT"), verdict_credit("INCONCLUSIVE", None)
    (0.0, 0.0)
    """
    g, p = normalize_verdict(gold), normalize_verdict(predicted)
    if g is None or p is None:
        return 0.0
    if g == INCONCLUSIVE:
        if p == INCONCLUSIVE:
            return 1.0
        return 0.5 if p in (PROCEED, REJECT) else 0.0
    return 1.0 if g == p else 0.0


# =========================================================================== inputs


@dataclass(frozen=True)
class GoldGate:
    """One gate of a gold reasoning program (Appendix E, Table E.1)."""

    number: int
    name: str
    verdict: str | None
    kill_criterion: str | None
    required_elements: tuple[str, ...]
    kill_triggered: bool


@dataclass(frozen=True)
class ResponseGate:
    """One card gate as the response addresses it (mentions merged).

    ``position`` is the 0-based rank of the first mention among the gates
    the response addresses; ``verdict`` is the last stated one; ``elements``
    the union in order of appearance; ``spans`` every ``[start, end)`` text
    span.
    """

    number: int
    name: str
    position: int
    verdict: str | None
    elements: tuple[str, ...]
    spans: tuple[tuple[int, int], ...]


@dataclass(frozen=True)
class SourceRef:
    """A gold source document for SAP@2 / SAP@3 (paper §7.8).

    ``context`` is the chapter/section locator SAP@3 verifies (e.g. "Ch. 20").
    """

    document: str
    year: int | None = None
    entity: str | None = None
    context: str | None = None


@dataclass(frozen=True)
class CareerBoundary:
    """A dated event in an investor's career (paper §11.6).

    ``mode`` says what it means for material dated after ``year``:
    ``"hard"`` (the registry's ``hard_exclude``: it no longer speaks for the
    canonical framework, FM-6 fires on it), ``"soft"`` (``soft_filter``:
    review only, never a flag) or ``"none"`` (a milestone only).
    """

    year: int
    label: str = ""
    mode: str = "hard"


_YEAR_IN = re.compile(r"(1[6-9]\d\d|2\d\d\d)")


def _year_of(value: object) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if hasattr(value, "year") and isinstance(getattr(value, "year"), int):
        return int(getattr(value, "year"))
    if isinstance(value, str):
        m = _YEAR_IN.search(value)
        return int(m.group(1)) if m else None
    return None


@dataclass(frozen=True)
class InvestorProfile:
    """What FM-2, FM-4, FM-5 and FM-6 need to know about an investor.

    Mirrors an entry of ``frameworks/investors.yaml``: ``name``, ``school``
    (for FM-5's surface-similar investors), ``distinctive_phrases`` (paper
    Table 8; the FM-4/FM-5 reference text), ``active`` period ``(start, end)``
    (``end`` None while active; FM-2's ±50-year year filter) and
    ``career_boundaries`` (FM-6).
    """

    name: str
    school: str | None = None
    distinctive_phrases: tuple[str, ...] = ()
    active: tuple[int, int | None] | None = None
    career_boundaries: tuple[CareerBoundary, ...] = ()
    aliases: tuple[str, ...] = ()

    def names(self) -> tuple[str, ...]:
        """The name and every alias."""
        return (self.name, *self.aliases)

    def matches(self, entity: object) -> bool:
        """Whether ``entity`` names this investor (:func:`investor_matches` on name or alias)."""
        return any(investor_matches(entity, n) for n in self.names())

    @property
    def reference_text(self) -> str:
        """The distinctive phrases joined, the investor's voice reference."""
        return "; ".join(self.distinctive_phrases)

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any]) -> "InvestorProfile":
        """Build from one ``investors.yaml`` entry.

        ``active`` may be ``{start, end}``, ``[start, end]`` or ``"1950-2023"``;
        ``career_boundaries`` a list of ``{date|year, event|label,
        corpus_filter|mode}`` mappings, bare years/dates, or a ``{label:
        date}`` mapping. ``corpus_filter`` ``hard_exclude`` is hard,
        ``soft_filter`` soft, ``none`` a milestone; without a filter or mode
        a listed boundary is hard.

        Raises
        ------
        ScoreError
            No ``name``, or a boundary without a recognisable year.

        Examples
        --------
        >>> p = InvestorProfile.from_mapping({"name": "Ray Dalio", "active": {"start": 1975, "end": "2022-10"},
        ...     "career_boundaries": [{"date": 1975, "event": "founded", "corpus_filter": "none"},
        ...                           {"date": "2022-10", "event": "stepped_down", "corpus_filter": "hard_exclude"}]})
        >>> p.active, [(b.year, b.mode) for b in p.career_boundaries]
        ((1975, 2022), [(1975, 'none'), (2022, 'hard')])
        """
        name = data.get("name")
        if not name:
            raise ScoreError("investor profile has no name", rule="investor")
        active = _parse_active(data.get("active"))
        bounds_raw = data.get("career_boundaries") or ()
        items: list[Any]
        if isinstance(bounds_raw, Mapping):
            items = [{"label": k, "date": v} for k, v in bounds_raw.items()]
        elif isinstance(bounds_raw, (list, tuple)):
            items = list(bounds_raw)
        else:
            items = [bounds_raw]
        boundaries = []
        for item in items:
            if isinstance(item, Mapping):
                year = None
                for key in ("year", "date", "end", "at", "boundary"):
                    if item.get(key) is not None:
                        year = _year_of(item[key])
                        break
                label = str(item.get("label") or item.get("event") or item.get("description") or "")
                mode = _boundary_mode(item.get("corpus_filter", item.get("mode", item.get("kind"))))
            else:
                year, label, mode = _year_of(item), "", "hard"
            if year is None:
                raise ScoreError(f"career boundary {item!r} of {name} has no year", rule="investor", name=str(name))
            boundaries.append(CareerBoundary(year, label, mode))
        phrases = data.get("distinctive_phrases") or ()
        if isinstance(phrases, str):
            phrases = [p.strip() for p in phrases.split(";") if p.strip()]
        return cls(
            name=str(name),
            school=data.get("school"),
            distinctive_phrases=tuple(str(p) for p in phrases),
            active=active,
            career_boundaries=tuple(boundaries),
            aliases=tuple(str(a) for a in data.get("aliases") or ()),
        )

    @classmethod
    def from_investor(cls, investor: Any) -> "InvestorProfile":
        """Build from an :class:`ipb.engine.investors.Investor` (read by attribute).

        Uses ``name``, ``aliases``, ``school``, ``distinctive_phrases``,
        ``active_start``/``active_end`` and ``career_boundaries`` (``date``,
        ``event``, ``corpus_filter``).
        """
        start = _year_of(getattr(investor, "active_start", None))
        end = _year_of(getattr(investor, "active_end", None))
        boundaries = tuple(
            CareerBoundary(
                _year_of(b.date) or 0,
                str(getattr(b, "event", "") or ""),
                _boundary_mode(getattr(b, "corpus_filter", None)),
            )
            for b in getattr(investor, "career_boundaries", ())
            if _year_of(b.date) is not None
        )
        return cls(
            name=str(investor.name),
            school=getattr(investor, "school", None),
            distinctive_phrases=tuple(getattr(investor, "distinctive_phrases", ())),
            active=None if start is None else (start, end),
            career_boundaries=boundaries,
            aliases=tuple(getattr(investor, "aliases", ())),
        )


def _boundary_mode(value: object) -> str:
    text = str(value or "").lower()
    if "soft" in text:
        return "soft"
    if text in ("none", "milestone"):
        return "none"
    return "hard"


def _parse_active(value: Any) -> tuple[int, int | None] | None:
    if value is None:
        return None
    if isinstance(value, Mapping):
        start, end = _year_of(value.get("start")), _year_of(value.get("end"))
    elif isinstance(value, (list, tuple)) and value:
        start = _year_of(value[0])
        end = _year_of(value[1]) if len(value) > 1 else None
    elif isinstance(value, str):
        years = [int(y) for y in _YEAR_IN.findall(value)]
        start, end = (years[0], years[1] if len(years) > 1 else None) if years else (None, None)
    else:
        return None
    return None if start is None else (start, end)


def investor_profiles(data: Any) -> dict[str, InvestorProfile]:
    """Profiles keyed by name from a loaded ``investors.yaml`` document.

    Accepts ``{"investors": [...]}``, a list of entries, or a mapping from a
    key to an entry (the key is the name when the entry has none).

    Examples
    --------
    >>> sorted(investor_profiles({"investors": [{"name": "Howard Marks", "school": "credit"}]}))
    ['Howard Marks']
    """
    if isinstance(data, Mapping) and "investors" in data:
        data = data["investors"]
    entries: list[Mapping[str, Any]] = []
    if isinstance(data, Mapping):
        for key, entry in data.items():
            entries.append({"name": key, **entry} if "name" not in entry else entry)
    else:
        entries = list(data)
    return {p.name: p for p in (InvestorProfile.from_mapping(e) for e in entries)}


def _gold_gates(grp: Mapping[str, Any]) -> tuple[GoldGate, ...]:
    program = grp.get("gold_program") if isinstance(grp, Mapping) else None
    if not isinstance(program, list) or not program:
        raise ScoreError("gold program has no gates (expected a non-empty 'gold_program' list)", rule="grp")
    gates = []
    seen: set[int] = set()
    for i, entry in enumerate(program):
        if not isinstance(entry, Mapping) or not isinstance(entry.get("gate"), int):
            raise ScoreError(f"gold_program[{i}] has no integer 'gate'", rule="grp", name=f"gold_program[{i}]")
        number = int(entry["gate"])
        if number in seen:
            raise ScoreError(f"gold program lists gate {number} twice", rule="grp", name=str(number))
        seen.add(number)
        gates.append(
            GoldGate(
                number=number,
                name=str(entry.get("name") or ""),
                verdict=normalize_verdict(entry.get("verdict")),
                kill_criterion=entry.get("kill_criterion"),
                required_elements=tuple(str(e) for e in entry.get("required_elements") or ()),
                kill_triggered=bool(entry.get("kill_triggered")),
            )
        )
    return tuple(gates)


def _response_gates(parsed: Mapping[str, Any]) -> dict[int, ResponseGate]:
    merged: dict[int, dict[str, Any]] = {}
    for i, entry in enumerate(parsed.get("gates") or ()):
        if not isinstance(entry, Mapping) or not isinstance(entry.get("gate"), int):
            raise ScoreError(f"parsed gates[{i}] has no integer 'gate'", rule="parsed", name=f"gates[{i}]")
        number = int(entry["gate"])
        slot = merged.setdefault(
            number,
            {"name": str(entry.get("name") or ""), "position": len(merged), "verdict": None, "elements": {}, "spans": []},
        )
        verdict = normalize_verdict(entry.get("verdict"))
        if verdict is not None:
            slot["verdict"] = verdict
        for element in entry.get("elements") or ():
            slot["elements"][str(element)] = None
        span = entry.get("span")
        if isinstance(span, (list, tuple)) and len(span) == 2:
            slot["spans"].append((int(span[0]), int(span[1])))
    return {
        n: ResponseGate(n, s["name"], s["position"], s["verdict"], tuple(s["elements"]), tuple(s["spans"]))
        for n, s in merged.items()
    }


@dataclass(frozen=True, eq=False)
class Case:
    """Everything the metrics read about one (item, response) pair.

    Parameters
    ----------
    gold : mapping
        The gold reasoning program (GRP dict).
    parsed : mapping
        The parsed response (parser contract, see module docstring).
    kill_gates : mapping int -> str, optional
        The card's kill gates: gate number -> kill criterion label. None: the
        gold gates with ``kill_triggered`` (the only kill information a GRP
        carries), see :attr:`kill_gate_numbers`.
    card_gates : tuple of int, optional
        Every gate number of the complete framework card (FM-1's absence test
        and the partial-item guard of §7.11). None: the gold gates.
    topology : str, optional
        The card's ``topology_type``; ``parallel_threshold`` gates carry no
        prescribed order (gold ranks all tied, see :func:`kendall_tau_b`).
    layer : str, optional
        ``"L1"`` ... ``"L8"``.
    investor : InvestorProfile, optional
        The investor the item is about.
    sources : tuple of SourceRef
        Gold documents for SAP@2 / SAP@3.
    truth_year : int, optional
        The PKB ground-truth year y* (FM-2).
    scenario_year, framework_year : int, optional
        Scenario era and the vintage of the framework the response applies
        (FM-6; see :func:`ipb.scoring.fmdp.fm6`).
    contradictions : tuple of str
        The PKB contradictions_or_tensions set C (ContradictionCoverage).
    institution : str, optional
        ``"NBIM"``, ``"CPPIB"`` or ``"PIF"`` for CKCA.
    ivp : float, optional
        IVP of the response's investor, computed across responses (FM-4).
    pairwise_sdi : mapping str -> float
        SDI against the response for each other investor (FM-4).
    peers : tuple of InvestorProfile
        Other investors (FM-4 persona inversion, FM-5 school clustering).
    encoder : Encoder, optional
        Sentence encoder; None: the default offline MiniLM.
    full_reconstruction : bool
        The item asks for the whole framework (an L4 reconstruction): every
        gold gate counts in GCF, tau, NED and NLCS, reached or not. False (an
        application item): gates the chain did not reach are neutral.
    """

    gold: Mapping[str, Any]
    parsed: Mapping[str, Any]
    kill_gates: Mapping[int, str] | None = None
    card_gates: tuple[int, ...] | None = None
    topology: str | None = None
    layer: str | None = None
    investor: InvestorProfile | None = None
    sources: tuple[SourceRef, ...] = ()
    truth_year: int | None = None
    scenario_year: int | None = None
    framework_year: int | None = None
    contradictions: tuple[str, ...] = ()
    institution: str | None = None
    ivp: float | None = None
    pairwise_sdi: Mapping[str, float] = field(default_factory=dict)
    peers: tuple[InvestorProfile, ...] = ()
    encoder: Encoder | None = None
    full_reconstruction: bool = False

    @classmethod
    def for_card(
        cls,
        gold: Mapping[str, Any],
        parsed: Mapping[str, Any],
        card: Any = None,
        **fields: Any,
    ) -> "Case":
        """A case with the card facts filled in from a compiled card.

        ``card`` is a card id or path, a ``CompiledCard`` or a ``Card``; by
        default ``gold["framework"]``. Fills ``kill_gates``, ``card_gates``,
        ``topology``, ``sources`` (the card's sources, locator as context),
        ``investor`` and ``peers`` (from the investor registry
        ``frameworks/investors.yaml`` when it lists the card; the card's
        investor name alone otherwise) and ``institution`` (NBIM / CPPIB / PIF
        when the card's id or investor names one); ``fields`` override any of
        them.

        Raises
        ------
        ipb.errors.LoadError
            The card cannot be found or compiled.
        ScoreError
            No card given and ``gold`` has no ``framework``.
        """
        from ipb.engine.registry import compiled_card

        ref = card if card is not None else gold.get("framework")
        if ref is None:
            raise ScoreError("no card given and the gold program names no framework", rule="grp", name="framework")
        if isinstance(ref, str):
            ref = compiled_card(ref)
        c: Any = getattr(ref, "card", ref)
        investor, peers = _registry_profiles(c)
        facts: dict[str, Any] = {
            "kill_gates": {g.number: g.kill_criterion for g in c.kill_gates},
            "card_gates": tuple(g.number for g in c.gates),
            "topology": c.topology_type,
            "sources": tuple(SourceRef(s.document, s.year, c.investor, s.locator) for s in c.sources),
            "investor": investor,
            "peers": peers,
            "institution": _institution_of(f"{c.id} {c.investor}"),
        }
        facts.update(fields)
        return cls(gold=gold, parsed=parsed, **facts)

    # ---- derived views (computed once per case)

    @property
    def ok(self) -> bool:
        """True when the response parsed (``status == "ok"``)."""
        return self.parsed.get("status", "ok") == "ok"

    def require_ok(self) -> None:
        """Raise unless the response parsed.

        Raises
        ------
        ScoreError
            ``status`` is ``parse_failure`` (rule ``parse_failure``, the
            parser's reason in the message): unscored, never a zero.
        """
        if not self.ok:
            raise ScoreError(
                f"response is a parse failure ({self.parsed.get('reason') or 'no reason given'}); it is unscored",
                rule="parse_failure",
            )

    @cached_property
    def gold_gates(self) -> tuple[GoldGate, ...]:
        """The gold gates in program order."""
        return _gold_gates(self.gold)

    @cached_property
    def response_gates(self) -> dict[int, ResponseGate]:
        """Card gates the response addresses, by number, in first-mention order."""
        return _response_gates(self.parsed)

    @cached_property
    def sequence_gates(self) -> tuple[GoldGate, ...]:
        """Gold gates GCF, tau, NED and NLCS run over.

        The reached gates (verdict other than N/A); every gate when
        ``full_reconstruction`` is set or no gate was reached.
        """
        gates = self.gold_gates
        if self.full_reconstruction:
            return gates
        reached = tuple(g for g in gates if g.verdict != NOT_APPLICABLE)
        return reached or gates

    @property
    def response_order(self) -> list[int]:
        """Gate numbers in the order the response first addresses them (Ŝ)."""
        return list(self.response_gates)

    @property
    def text(self) -> str:
        return str(self.parsed.get("text") or "")

    @cached_property
    def kill_gate_numbers(self) -> frozenset[int]:
        """Numbers of the kill gates (card kill gates, else triggered gold gates)."""
        if self.kill_gates is not None:
            return frozenset(self.kill_gates)
        return frozenset(g.number for g in self.gold_gates if g.kill_triggered)

    def resolved_encoder(self) -> Encoder:
        """``encoder``, or the default offline MiniLM."""
        return self.encoder if self.encoder is not None else default_encoder()

    def gate_text(self, number: int) -> str:
        """The response text of every span addressing gate ``number``."""
        gate = self.response_gates.get(number)
        if gate is None:
            return ""
        return " ".join(self.text[a:b] for a, b in gate.spans)


def _registry_profiles(card: Any) -> tuple[InvestorProfile, tuple[InvestorProfile, ...]]:
    try:
        from ipb.engine.investors import investor_for_card, load_investors

        own = investor_for_card(card)
        everyone = load_investors()
    except (ImportError, IpbError, KeyError, AttributeError):
        return InvestorProfile(name=str(card.investor)), ()
    peers = tuple(InvestorProfile.from_investor(i) for i in everyone.values() if i.name != own.name)
    return InvestorProfile.from_investor(own), peers


def _institution_of(text: str) -> str | None:
    low = text.lower()
    if "nbim" in low or "norges" in low or "norway" in low or "norwegian" in low:
        return "NBIM"
    if "cppib" in low or "canada pension" in low or "cpp investments" in low:
        return "CPPIB"
    if re.search(r"\bpif\b", low) or "public investment fund" in low:
        return "PIF"
    return None


# =========================================================================== sequence primitives


def _defined_tau(concordant: float, discordant: float, pairs: float, x_ties: float, y_ties: float) -> float:
    if pairs <= 0:
        return 1.0
    if pairs - x_ties <= 0:
        return 1.0
    if pairs - y_ties <= 0:
        return 0.0
    value = (concordant - discordant) / math.sqrt((pairs - x_ties) * (pairs - y_ties))
    return max(-1.0, min(1.0, value))


def weighted_kendall_tau(x: Sequence[float], y: Sequence[float], weights: Sequence[float]) -> float:
    """Kendall's tau-b with each pair weighted by the product of its items' weights.

    .. math::

        \\tau_w = \\frac{C_w - D_w}{\\sqrt{(W - T_{x,w})(W - T_{y,w})}},\\quad
        C_w = \\sum_{i<j} w_i w_j \\mathbf{1}[\\text{concordant}],\\quad
        W = \\sum_{i<j} w_i w_j

    with :math:`D_w` the weighted discordant count and :math:`T_{x,w}`,
    :math:`T_{y,w}` the weighted counts of pairs tied in ``x`` / ``y``. With
    every weight equal this is exactly tau-b.

    Parameters
    ----------
    x : sequence of float, length n
        Gold ranks (ties allowed: gates with no prescribed order).
    y : sequence of float, length n
        Response ranks.
    weights : sequence of float, length n
        Positive item weights (OGRS_k: 2.0 for kill gates, 1.0 otherwise).

    Returns
    -------
    float
        In [-1, 1], never NaN. Where tau-b is 0/0 the value is defined:

        - fewer than 2 items, no pair to compare: **1.0** (nothing is out of
          order; a single-gate program answered with that gate is perfect);
        - ``x`` constant (the gold prescribes no order): **1.0**;
        - ``y`` constant while ``x`` is not (the response states no order): **0.0**.

    Raises
    ------
    ScoreError
        Lengths differ, or a weight is not positive.

    References
    ----------
    InvestPhilBench §7.6 (OGRS_k, weighted concordance count :math:`C_w`).

    Examples
    --------
    >>> weighted_kendall_tau([1, 2, 3], [1, 3, 2], [1, 1, 1])  # = tau-b = 1/3
    0.3333333333333333
    >>> weighted_kendall_tau([1, 2, 3], [1, 3, 2], [2, 1, 1])  # the swapped pair weighs 1 of 5
    0.6
    """
    n = len(x)
    if len(y) != n or len(weights) != n:
        raise ScoreError(f"rank sequences differ in length ({n}, {len(y)}, {len(weights)})", rule="tau")
    if any(not (w > 0) for w in weights):
        raise ScoreError("weights must be positive", rule="tau")
    conc = disc = total = xt = yt = 0.0
    for i in range(n):
        for j in range(i + 1, n):
            w = float(weights[i]) * float(weights[j])
            total += w
            dx = x[i] - x[j]
            dy = y[i] - y[j]
            if dx == 0:
                xt += w
            if dy == 0:
                yt += w
            if dx == 0 or dy == 0:
                continue
            if (dx > 0) == (dy > 0):
                conc += w
            else:
                disc += w
    return _defined_tau(conc, disc, total, xt, yt)


def kendall_tau_b(x: Sequence[float], y: Sequence[float]) -> float:
    """Kendall's tau-b of two rankings, defined everywhere.

    .. math:: \\tau_b = \\frac{C - D}{\\sqrt{(n_0 - n_1)(n_0 - n_2)}}

    with :math:`n_0 = \\binom{n}{2}` and :math:`n_1`, :math:`n_2` the pairs
    tied in ``x`` and ``y``. Without ties it is the §7.14 form
    :math:`(C - D)/\\binom{n}{2}`. It equals ``scipy.stats.kendalltau`` (its
    default tau-b) wherever that is not NaN; the undefined cases get the
    values documented in :func:`weighted_kendall_tau` (1.0 for fewer than two
    items or a constant gold ranking ``x``, 0.0 for a constant ``y`` only).

    Parameters
    ----------
    x : sequence of float, length n
        Gold ranks.
    y : sequence of float, length n
        Response ranks.

    Returns
    -------
    float in [-1, 1]

    References
    ----------
    InvestPhilBench §7.6 (OGRS), §7.14.

    Examples
    --------
    >>> kendall_tau_b([1, 2, 3], [1, 2, 3]), kendall_tau_b([1, 2, 3], [3, 2, 1])
    (1.0, -1.0)
    >>> kendall_tau_b([1], [1]), kendall_tau_b([1, 1], [1, 2])
    (1.0, 1.0)
    """
    return weighted_kendall_tau(x, y, [1.0] * len(x))


def normalized_tau(tau: float) -> float:
    """Map tau from [-1, 1] to [0, 1]: :math:`\\tau_n = (\\tau + 1)/2` (§7.6).

    >>> normalized_tau(-1.0), normalized_tau(0.0), normalized_tau(1.0)
    (0.0, 0.5, 1.0)
    """
    return (tau + 1.0) / 2.0


def edit_distance(a: Sequence[Any], b: Sequence[Any]) -> int:
    """Levenshtein distance (unit-cost insert, delete, substitute).

    Examples
    --------
    >>> edit_distance([1, 2, 3, 4], [1, 3, 4, 5])
    2
    >>> edit_distance("kitten", "sitting")
    3
    """
    if len(a) < len(b):
        a, b = b, a
    previous = list(range(len(b) + 1))
    for i, item in enumerate(a, start=1):
        current = [i]
        for j, other in enumerate(b, start=1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (item != other)))
        previous = current
    return previous[-1]


def lcs_length(a: Sequence[Any], b: Sequence[Any]) -> int:
    """Length of the longest common subsequence.

    Examples
    --------
    >>> lcs_length([1, 2, 3, 4, 5], [2, 5, 3, 4])
    3
    """
    if len(a) < len(b):
        a, b = b, a
    previous = [0] * (len(b) + 1)
    for item in a:
        current = [0]
        for j, other in enumerate(b, start=1):
            current.append(previous[j - 1] + 1 if item == other else max(previous[j], current[j - 1]))
        previous = current
    return previous[-1]


def _edit_within(a: str, b: str, k: int) -> bool:
    """``edit_distance(a, b) <= k`` for strings, bounded and at C speed (rapidfuzz Levenshtein).

    >>> _edit_within("owners manual", "owner s manual", 3), _edit_within("kitten", "sitting", 2)
    (True, False)
    """
    return bool(Levenshtein.distance(a, b, score_cutoff=k) <= k)


def normalized_edit_distance(a: Sequence[Any], b: Sequence[Any]) -> float:
    """NED = EditDistance(S, Ŝ) / max(|S|, |Ŝ|) (§7.14); 0.0 for two empty sequences.

    Equals ``rapidfuzz.distance.Levenshtein.normalized_distance``.

    >>> normalized_edit_distance([1, 2, 3, 4, 5, 6], [1, 2, 3])
    0.5
    """
    longest = max(len(a), len(b))
    return 0.0 if longest == 0 else edit_distance(a, b) / longest


def normalized_lcs(a: Sequence[Any], b: Sequence[Any]) -> float:
    """NLCS = |LCS(S, Ŝ)| / max(|S|, |Ŝ|) (§7.14); 1.0 for two empty sequences.

    Equals ``rapidfuzz.distance.LCSseq.normalized_similarity``.

    >>> normalized_lcs([1, 2, 3, 4, 5, 6], [1, 2, 3])
    0.5
    """
    longest = max(len(a), len(b))
    return 1.0 if longest == 0 else lcs_length(a, b) / longest


# =========================================================================== element matching

#: Cosine threshold for conceptual element matches with the default
#: all-MiniLM-L6-v2 encoder: the F1-optimal threshold (:func:`calibrate_threshold`)
#: on the 102 hand-labelled pairs of ``tests/scoring/data/kccs_pairs.json``,
#: guards on. There: F1 0.75, precision 0.84, recall 0.68, accuracy 0.75;
#: the best-F1 plateau spans 0.38-0.42; two-fold cross-validation picks 0.39 /
#: 0.42 with held-out F1 0.81 / 0.62. The paper's 0.82 (text-embedding-3-large)
#: gives F1 0.30 with MiniLM, which scores short paraphrases far lower.
DEFAULT_CONCEPT_THRESHOLD = 0.41
#: The paper's threshold, set for text-embedding-3-large (§7.7); not for MiniLM.
PAPER_KCCS_THRESHOLD = 0.82
#: Relative tolerance for numbers matched "exactly" (rounding: $25.0B = $25B).
DEFAULT_REL_TOL = 1e-3
#: Relative tolerance when the gold element marks its number approximate (~, about).
DEFAULT_APPROX_REL_TOL = 0.10


@dataclass(frozen=True)
class Quantity:
    """A number found in text, scaled, with a coarse unit.

    ``unit`` is ``money`` ($), ``ratio`` (%, stored as a fraction),
    ``multiple`` (x, ×, times) or ``plain``.
    """

    value: float
    unit: str


_NUMBER = re.compile(
    r"(?<![\w.])(?P<neg>[-−–])?(?P<cur>\$)?"
    r"(?P<num>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+)"
    r"(?:\s?/\s?(?P<den>\d+(?:\.\d+)?))?"
    r"(?:\s?(?P<suf>%|percent\b|per\s?cent\b|x\b|×|times\b|trillion\b|billion\b|million\b|thousand\b|bn\b|mn\b|[kmbt]\b))?",
    re.IGNORECASE,
)
_WORD_FRACTIONS = re.compile(
    r"\b(two[- ]thirds|one[- ]third|one[- ]half|three[- ]quarters|one[- ]quarter)\b", re.IGNORECASE
)
_FRACTION_VALUES = {"twothirds": 2 / 3, "onethird": 1 / 3, "onehalf": 0.5, "threequarters": 0.75, "onequarter": 0.25}
_SCALE = {"k": 1e3, "thousand": 1e3, "m": 1e6, "mn": 1e6, "million": 1e6, "b": 1e9, "bn": 1e9, "billion": 1e9}
_SCALE.update({"t": 1e12, "trillion": 1e12})
_APPROX = re.compile(r"[~≈]|\b(?:about|approx(?:imately)?|around|roughly|circa|nearly|some)\b", re.IGNORECASE)


@lru_cache(maxsize=65536)
def _quantities(text: str) -> tuple[Quantity, ...]:
    found: list[Quantity] = []
    for m in _NUMBER.finditer(text):
        value = float(m.group("num").replace(",", ""))
        if m.group("den"):
            den = float(m.group("den"))
            if den == 0:
                continue
            value /= den
        suffix = (m.group("suf") or "").lower().replace(" ", "")
        unit = "money" if m.group("cur") else "plain"
        if suffix in ("%", "percent"):
            value, unit = value / 100.0, "ratio"
        elif suffix in ("x", "×", "times"):
            unit = "multiple"
        elif suffix:
            value *= _SCALE[suffix]
        if m.group("neg"):
            value = -value
        found.append(Quantity(value, unit))
    for m in _WORD_FRACTIONS.finditer(text):
        found.append(Quantity(_FRACTION_VALUES[re.sub(r"[- ]", "", m.group(1).lower())], "plain"))
    return tuple(found)


def extract_quantities(text: str) -> list[Quantity]:
    """Numbers with units in ``text``: $5B, 10x, 95%, 2/3, two-thirds, −$2B.

    Money suffixes K/M/B/T (and bn, million, billion...) scale the value;
    percentages become fractions; a unicode minus or en dash before a number
    negates it. Linear-time regular expressions (no nested quantifiers).

    Examples
    --------
    >>> [(q.value, q.unit) for q in extract_quantities("price $50B vs ~$25B, 2x premium, retention >= 90%")]
    [(50000000000.0, 'money'), (25000000000.0, 'money'), (2.0, 'multiple'), (0.9, 'ratio')]
    >>> [(round(q.value, 4), q.unit) for q in extract_quantities("−$2B and 2/3")]
    [(-2000000000.0, 'money'), (0.6667, 'plain')]
    """
    return list(_quantities(text))


_WORD_L, _WORD_R = r"(?<![a-z])", r"(?![a-z])"
_DOWN_CUES = (
    r"no\s+more\s+than|not\s+more\s+than|no\s+higher\s+than|not\s+(?:above|over|exceed(?:ing)?)|"
    r"at\s+most|up\s+to|less\s+than|lower\s+than|fewer\s+than|smaller\s+than|cheaper\s+than|"
    r"below|beneath|under(?=\s*[-−$\d.])|short\s+of|<=|≤|<|maximum(?:\s+of)?|capped\s+at|lower|less|cheaper"
)
_UP_CUES = (
    r"no\s+less\s+than|not\s+less\s+than|no\s+lower\s+than|not\s+(?:below|under)|"
    r"at\s+least|more\s+than|greater\s+than|higher\s+than|larger\s+than|above|"
    r"exceed(?:s|ed|ing)?|in\s+excess\s+of|beyond|over(?=\s*[-−$\d.])|>=|≥|>|minimum(?:\s+of)?|higher|greater"
)
_DIRECTION = re.compile(rf"{_WORD_L}(?:(?P<down>{_DOWN_CUES})|(?P<up>{_UP_CUES})){_WORD_R}")
_NEG_BEFORE = re.compile(r"(?:\bnot|\bnever|n't|\bno)\s+(?:[a-z]+\s+)?$")
_NEGATION = re.compile(
    r"\b(?:not|no|never|lacks?|lacking|lacked|absent|absence|none|neither|nor|cannot|outside|"
    r"dishonest|unable|insufficient|insufficiency|unprofitable|unknown|unclear)\b|n't\b|"
    r"\bfail(?:s|ed|ing)?\s+to\b|"
    # "without" negates, except before a word that is itself a loss ("without losing customers")
    r"\bwithout\b(?!\s+(?:losing|hurting|harming|sacrificing|damaging|reducing|loss|hurt)\b)"
)


@lru_cache(maxsize=65536)
def _analyse(text: str) -> tuple[str | None, bool]:
    low = text.lower().replace("_", " ").replace("’", "'")
    directions: set[str] = set()
    spans: list[tuple[int, int]] = []
    for m in _DIRECTION.finditer(low):
        d = "down" if m.group("down") else "up"
        start = m.start()
        before = low[max(0, start - 24) : start]
        neg = _NEG_BEFORE.search(before)
        if neg:
            d = "up" if d == "down" else "down"
            start = start - len(before) + neg.start()
        spans.append((start, m.end()))
        directions.add(d)
    masked = list(low)
    for a, b in spans:
        masked[a:b] = " " * (b - a)
    negations = len(_NEGATION.findall("".join(masked)))
    return (directions.pop() if len(directions) == 1 else None), negations % 2 == 1


def comparison_direction(text: str) -> str | None:
    """``"up"`` (above, exceeds, >=, at least...), ``"down"`` (below, under, <=,
    at most...) or None (no cue, or cues that disagree).

    A negation just before a cue flips it ("not above" is down, "no less than"
    is up). "over"/"under" count only before a number.

    Examples
    --------
    >>> comparison_direction("debt above 3x"), comparison_direction("debt below 3x")
    ('up', 'down')
    >>> comparison_direction("price does not exceed intrinsic value"), comparison_direction("switching costs")
    ('down', None)
    """
    return _analyse(text)[0]


def is_negated(text: str) -> bool:
    """True when ``text`` carries an odd number of negations outside comparison cues.

    Examples
    --------
    >>> is_negated("no durable competitive advantage"), is_negated("durable competitive advantage")
    (True, False)
    >>> is_negated("debt no more than 3x")
    False
    """
    return _analyse(text)[1]


_NORM = re.compile(r"[^a-z0-9]+")


def _norm(text: str) -> str:
    return _NORM.sub(" ", text.lower()).strip()


def _human(text: str) -> str:
    return " ".join(text.replace("_", " ").split())


def _quantities_match(gold: Sequence[Quantity], predicted: Sequence[Quantity], tol: float) -> bool:
    for g in gold:
        if not any(
            (g.unit == p.unit or "plain" in (g.unit, p.unit))
            and abs(g.value - p.value) <= tol * max(abs(g.value), abs(p.value))
            for p in predicted
        ):
            return False
    return True


def _max_matching(adjacency: Sequence[Sequence[bool]]) -> list[tuple[int, int]]:
    """Maximum bipartite matching (Kuhn's augmenting paths), deterministic."""
    n_right = len(adjacency[0]) if adjacency else 0
    owner: list[int | None] = [None] * n_right

    def augment(i: int, seen: list[bool]) -> bool:
        for j in range(n_right):
            if adjacency[i][j] and not seen[j]:
                seen[j] = True
                current = owner[j]
                if current is None or augment(current, seen):
                    owner[j] = i
                    return True
        return False

    for i in range(len(adjacency)):
        augment(i, [False] * n_right)
    return sorted((i, j) for j, i in enumerate(owner) if i is not None)


@lru_cache(maxsize=65536)
def _decide(gold: str, predicted: str, rel_tol: float, approx_rel_tol: float) -> tuple[bool | None, str]:
    """:meth:`ElementMatcher.decide`, cached: the same pairs recur across gates, metrics and responses."""
    g_dir, g_neg = _analyse(gold)
    p_dir, p_neg = _analyse(predicted)
    if g_neg != p_neg:
        return False, "negation"
    if g_dir is not None and p_dir is not None and g_dir != p_dir:
        return False, "direction"
    g_q = _quantities(gold)
    if g_q:
        tol = approx_rel_tol if _APPROX.search(gold) else rel_tol
        ok = _quantities_match(g_q, _quantities(predicted), tol)
        return ok, "numeric" if ok else "numeric-mismatch"
    g_n, p_n = _norm(gold), _norm(predicted)
    if not g_n:
        return False, "empty"
    if g_n == p_n:
        return True, "exact"
    if f" {g_n} " in f" {p_n} ":
        return True, "contains"
    return None, "semantic"


@dataclass(frozen=True)
class ElementMatcher:
    """Decides whether a detected element matches a gold element (§7.7).

    A gold element **with a number** is numeric: every number in it must
    appear in the detected element with a compatible unit, equal within
    ``rel_tol`` (``approx_rel_tol`` when the gold marks it approximate: ~, ≈,
    about, around...). A gold element **without a number** is conceptual:
    it matches when the normalised texts are equal, when the gold phrase
    occurs word-for-word inside the detected one, or when the cosine of
    their embeddings is at least ``threshold``. Both kinds pass two guards
    first, because embeddings score "debt above 3x" and "debt below 3x" as
    near-identical (0.96 with MiniLM):

    - **negation**: both texts must be negated or both not ("no durable
      moat" never matches "durable moat");
    - **direction**: when both state a comparison direction (above/below,
      exceeds/under, >=/<=, at least/at most), they must agree.

    Parameters
    ----------
    encoder : Encoder, optional
        Sentence encoder for conceptual elements (default MiniLM when
        needed; never loaded when every pair is decided lexically).
    threshold : float
        Cosine threshold; default :data:`DEFAULT_CONCEPT_THRESHOLD`.
    rel_tol, approx_rel_tol : float
        Relative numeric tolerances.
    """

    encoder: Encoder | None = None
    threshold: float = DEFAULT_CONCEPT_THRESHOLD
    rel_tol: float = DEFAULT_REL_TOL
    approx_rel_tol: float = DEFAULT_APPROX_REL_TOL

    def decide(self, gold: str, predicted: str) -> tuple[bool | None, str]:
        """Lexical decision for one pair: (True/False, reason), or (None, "semantic")
        when only the cosine can decide."""
        return _decide(gold, predicted, self.rel_tol, self.approx_rel_tol)

    def match_matrix(self, gold: Sequence[str], predicted: Sequence[str]) -> NDArray[np.bool_]:
        """Boolean matrix, shape (len(gold), len(predicted)): does detected j match gold i."""
        out = np.zeros((len(gold), len(predicted)), dtype=bool)
        pending: list[tuple[int, int]] = []
        for i, g in enumerate(gold):
            for j, p in enumerate(predicted):
                decided, _ = self.decide(g, p)
                if decided is None:
                    pending.append((i, j))
                else:
                    out[i, j] = decided
        if pending:
            sims = self.similarities([gold[i] for i, _ in pending], [predicted[j] for _, j in pending])
            for (i, j), s in zip(pending, sims):
                out[i, j] = s >= self.threshold
        return out

    def similarities(self, left: Sequence[str], right: Sequence[str]) -> NDArray[np.float64]:
        """Cosine of each ``left[k]`` with ``right[k]`` (one encoder batch, each
        distinct text embedded once)."""
        texts = list(dict.fromkeys(_human(t) for t in (*left, *right)))
        encoder = self.encoder if self.encoder is not None else default_encoder()
        vectors = embed(encoder, texts)
        index = {t: k for k, t in enumerate(texts)}
        a = vectors[[index[_human(t)] for t in left]]
        b = vectors[[index[_human(t)] for t in right]]
        result: NDArray[np.float64] = np.clip(np.sum(a * b, axis=1), -1.0, 1.0)
        return result

    def matched_pairs(self, gold: Sequence[str], predicted: Sequence[str]) -> list[tuple[int, int]]:
        """A maximum one-to-one matching of gold to detected elements."""
        if not gold or not predicted:
            return []
        return _max_matching(self.match_matrix(gold, predicted).tolist())

    def f1(self, gold: Sequence[str], predicted: Sequence[str]) -> float:
        """Element F1 :math:`2|E \\cap \\hat E| / (|E| + |\\hat E|)`; 1.0 when both are empty."""
        if not gold and not predicted:
            return 1.0
        return 2 * len(self.matched_pairs(gold, predicted)) / (len(gold) + len(predicted))

    def recall(self, gold: Sequence[str], predicted: Sequence[str]) -> float:
        """Fraction of gold elements matched one-to-one; 1.0 when ``gold`` is empty."""
        if not gold:
            return 1.0
        return len(self.matched_pairs(gold, predicted)) / len(gold)


def element_f1(gold: Sequence[str], predicted: Sequence[str], matcher: ElementMatcher | None = None) -> float:
    """Gate-level KCCS: :math:`2|E_g \\cap \\hat E_g| / (|E_g| + |\\hat E_g|)` (§7.7).

    ``|E ∩ Ê|`` is the size of a maximum one-to-one matching under
    :class:`ElementMatcher`, so one detected element never covers two gold
    elements. Both empty: 1.0.

    Examples
    --------
    >>> m = ElementMatcher(encoder=None)
    >>> element_f1(["price $50B", "debt above 3x"], ["asking price of $50 billion", "debt below 3x"], m)
    0.5
    """
    return (matcher or ElementMatcher()).f1(gold, predicted)


@dataclass(frozen=True)
class CalibrationResult:
    """Best cosine threshold on a labelled pair set, and its quality there."""

    threshold: float
    f1: float
    precision: float
    recall: float
    accuracy: float
    n: int
    n_semantic: int


def calibrate_threshold(
    pairs: Sequence[tuple[str, str, bool]],
    encoder: Encoder | None = None,
    grid: Sequence[float] | None = None,
) -> CalibrationResult:
    """Choose the conceptual-match cosine threshold that maximises match F1.

    Each pair ``(gold, detected, label)`` is judged by :class:`ElementMatcher`
    (guards and lexical rules included) at every threshold in ``grid``
    (default 0.30, 0.31, ..., 0.95); among the thresholds with the best F1 the
    median one is returned, the middle of the best plateau.

    Parameters
    ----------
    pairs : sequence of (str, str, bool)
        Labelled element pairs; True means "should match".
    encoder : Encoder, optional
        Default: the offline MiniLM.
    grid : sequence of float, optional

    Returns
    -------
    CalibrationResult

    Raises
    ------
    ScoreError
        ``pairs`` is empty.
    """
    if not pairs:
        raise ScoreError("calibration needs at least one labelled pair", rule="calibration")
    grid = list(grid) if grid is not None else [round(0.30 + 0.01 * k, 2) for k in range(66)]
    matcher = ElementMatcher(encoder)
    decided = [matcher.decide(g, p)[0] for g, p, _ in pairs]
    pending = [k for k, d in enumerate(decided) if d is None]
    sims = np.zeros(len(pairs))
    if pending:
        sims[pending] = matcher.similarities([pairs[k][0] for k in pending], [pairs[k][1] for k in pending])
    labels = np.array([bool(lab) for _, _, lab in pairs])
    rows = []
    for t in grid:
        pred = np.array([d if d is not None else bool(sims[k] >= t) for k, d in enumerate(decided)])
        tp = int(np.sum(pred & labels))
        fp = int(np.sum(pred & ~labels))
        fn = int(np.sum(~pred & labels))
        precision = tp / (tp + fp) if tp + fp else 1.0
        recall = tp / (tp + fn) if tp + fn else 1.0
        f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
        rows.append((t, f1, precision, recall, float(np.mean(pred == labels))))
    best = max(r[1] for r in rows)
    plateau = [r for r in rows if r[1] == best]
    chosen = min(plateau, key=lambda r: abs(r[0] - median(p[0] for p in plateau)))
    return CalibrationResult(chosen[0], chosen[1], chosen[2], chosen[3], chosen[4], len(pairs), len(pending))


def prefetch_embeddings(cases: Iterable[Case], encoder: Encoder | None = None) -> int:
    """Embed, in one batch, every text the metrics and detectors may compare.

    For each case: gold required elements and kill labels, detected
    elements (as :class:`ElementMatcher` embeds them), contradictions and the
    response's sentences, the whole response text and the voice references
    of the investor and peers. Each distinct text is sent once. This only
    saves work when the encoder caches (:class:`~ipb.scoring.embeddings.CachedEncoder`,
    as :func:`~ipb.scoring.embeddings.default_encoder` does): later metric
    calls then find every vector cached.

    Parameters
    ----------
    cases : iterable of Case
        Cases sharing ``encoder`` (or each case's own when None).
    encoder : Encoder, optional
        Default: the first case's encoder, else the default MiniLM.

    Returns
    -------
    int
        Number of distinct texts sent to the encoder.
    """
    texts: dict[str, None] = {}
    chosen = encoder
    for case in cases:
        chosen = chosen or case.encoder
        if not case.ok:
            continue
        for g in case.gold_gates:
            for e in g.required_elements:
                texts[_human(e)] = None
        for label in (case.kill_gates or {}).values():
            if label:
                texts[_human(label)] = None
        for r in case.response_gates.values():
            for e in r.elements:
                texts[_human(e)] = None
        if case.contradictions:
            texts.update(dict.fromkeys(case.contradictions))
            texts.update(dict.fromkeys(split_sentences(case.text)))
        if case.text.strip():
            texts[case.text] = None
        for profile in (case.investor, *case.peers):
            if profile is not None and profile.distinctive_phrases:
                texts[profile.reference_text] = None
    unique = list(texts)
    if unique:
        (chosen if chosen is not None else default_encoder()).encode(unique)
    return len(unique)


# =========================================================================== gate sequence metrics


def _common_ranks(case: Case) -> tuple[list[int], list[float], list[float]]:
    order = {n: i for i, n in enumerate(case.response_order)}
    unordered = case.topology == "parallel_threshold"
    gates, gold_ranks, response_ranks = [], [], []
    for i, g in enumerate(case.sequence_gates):
        if g.number in order:
            gates.append(g.number)
            gold_ranks.append(0.0 if unordered else float(i))
            response_ranks.append(float(order[g.number]))
    return gates, gold_ranks, response_ranks


@metric("gcf", section="§7.6")
def gcf(case: Case) -> float:
    """Gate Coverage Fraction: :math:`\\mathrm{GCF} = |\\{g \\in G : g \\in \\hat S\\}| / |G|`.

    ``G`` is :attr:`Case.sequence_gates`: the gold gates the chain reached.
    Gates it did not reach (N/A after a kill, off the active branch) are
    neutral: a response that stops at the kill, as the procedure says, is not
    penalised, and one that adds "gate 6: not reached" is not either. Set
    ``Case.full_reconstruction`` for items that ask for the whole framework:
    then every gold gate counts.

    Returns
    -------
    float in [0, 1]

    Raises
    ------
    ScoreError
        Parse failure, or a gold program without gates.

    References
    ----------
    InvestPhilBench §7.6.
    """
    case.require_ok()
    gold = case.sequence_gates
    addressed = case.response_gates
    return sum(1 for g in gold if g.number in addressed) / len(gold)


@metric("kendall_tau", section="§7.6", bounds=(-1.0, 1.0))
def kendall_tau(case: Case) -> float:
    """Kendall's tau-b between gold and response order over the common gates.

    Ranks are positions in the gold program and first-mention positions in
    the response, over the gates both contain (gold gates from
    :attr:`Case.sequence_gates`). Defined values where tau-b is
    0/0 (see :func:`kendall_tau_b`): fewer than two common gates -> 1.0;
    a ``parallel_threshold`` card (no prescribed order) -> 1.0.

    Returns
    -------
    float in [-1, 1]

    References
    ----------
    InvestPhilBench §7.6, §7.14.
    """
    case.require_ok()
    _, x, y = _common_ranks(case)
    return kendall_tau_b(x, y)


@metric("tau_n", section="§7.6")
def tau_n(case: Case) -> float:
    """Normalised tau :math:`\\tau_n = (\\tau + 1)/2` of :func:`kendall_tau` (§7.6)."""
    return normalized_tau(kendall_tau(case))


@metric("ogrs", section="§7.6", layers=("W1",))
def ogrs(case: Case) -> float:
    """Ordered Gate Reconstruction Score :math:`\\mathrm{OGRS} = \\mathrm{GCF} \\times \\tau_n`.

    Jointly penalises missing gates and mis-ordering: 3 of 6 gates in perfect
    order gives GCF 0.5, tau 1, OGRS 0.5; no gate gives 0 whatever the order.

    Returns
    -------
    float in [0, 1]

    References
    ----------
    InvestPhilBench §7.6.
    """
    return gcf(case) * tau_n(case)


@metric("ogrs_k", section="§7.6", layers=("L4", "L7"))
def ogrs_k(case: Case, *, kill_weight: float = 2.0) -> float:
    """OGRS with kill gates weighted: :math:`\\mathrm{GCF} \\times (\\tau_k + 1)/2`.

    §7.6: kill-criterion gates get weight :math:`w_k = 2.0`, others 1.0; the
    weighted concordance count :math:`C_w = \\sum_{i<j} w_i w_j
    \\mathbf{1}[\\text{concordant}]` replaces the unweighted count in tau.
    Substituting :math:`C_w` into :math:`(C - D)/\\binom{n}{2}` alone would
    leave [-1, 1] (three gates in order, one a kill gate: 5/3), so tau is
    derived from :math:`C_w` consistently: discordant pairs and the pair
    total are weighted the same way (:func:`weighted_kendall_tau`), which
    without ties is :math:`2C_w/W - 1`. GCF stays unweighted ("computed
    identically to OGRS but using tau derived from C_w"). Kill gates are
    :attr:`Case.kill_gate_numbers`.

    Parameters
    ----------
    kill_weight : float
        Weight of a kill gate (paper: 2.0).

    Returns
    -------
    float in [0, 1]

    References
    ----------
    InvestPhilBench §7.6 "Kill-criterion weighting (OGRS_k)".
    """
    case.require_ok()
    gates, x, y = _common_ranks(case)
    kill = case.kill_gate_numbers
    weights = [kill_weight if n in kill else 1.0 for n in gates]
    return gcf(case) * normalized_tau(weighted_kendall_tau(x, y, weights))


def _sequences(case: Case) -> tuple[list[int], list[int]]:
    gold = [g.number for g in case.sequence_gates]
    gold_set = set(gold)
    neutral = {g.number for g in case.gold_gates} - gold_set
    card = set(case.card_gates) if case.card_gates is not None else None
    response = [
        n
        for n in case.response_order
        if n not in neutral and (n in gold_set or card is None or n not in card)
    ]
    return gold, response


@metric("ned", section="§7.14")
def ned(case: Case) -> float:
    """Normalised edit distance :math:`\\mathrm{NED} = \\mathrm{ED}(S, \\hat S)/\\max(|S|, |\\hat S|)`.

    ``S`` is the gold gate sequence (:attr:`Case.sequence_gates`), ``Ŝ`` the
    response's gates in first-mention order. Gold gates the chain did not
    reach are neutral (left out of both), and so are real card gates that a
    partial gold program does not annotate (the §7.11 partial-item guard);
    lower is
    better.

    Returns
    -------
    float in [0, 1]

    References
    ----------
    InvestPhilBench §7.14.
    """
    case.require_ok()
    return normalized_edit_distance(*_sequences(case))


@metric("nlcs", section="§7.14")
def nlcs(case: Case) -> float:
    """Normalised LCS :math:`\\mathrm{NLCS} = |\\mathrm{LCS}(S, \\hat S)|/\\max(|S|, |\\hat S|)`.

    Sequences as in :func:`ned`; higher is better.

    Returns
    -------
    float in [0, 1]

    References
    ----------
    InvestPhilBench §7.14.
    """
    case.require_ok()
    return normalized_lcs(*_sequences(case))


# =========================================================================== verdicts


@metric("verdict_acc_gates", section="§7.3")
def verdict_acc_gates(case: Case) -> float | None:
    """Per-gate VerdictAcc: mean :func:`verdict_credit` over the gold gates.

    .. math:: \\frac{1}{|G'|}\\sum_{g \\in G'} c(v_g, \\hat v_g),\\quad
              c = 1 \\text{ if equal};\\ c(\\text{INCONCLUSIVE}, \\text{PROCEED|REJECT}) = 0.5

    ``G'`` is the gold gates with a verdict (N/A gates, not reached, carry no
    verdict to reproduce). A gate the response does not address earns 0.

    Returns
    -------
    float in [0, 1], or None when no gold gate has a verdict.

    References
    ----------
    InvestPhilBench §7.3 (INCONCLUSIVE rule), §7.6 (OGRS verdict accuracy).
    """
    case.require_ok()
    scored = [g for g in case.gold_gates if g.verdict in (PROCEED, REJECT, INCONCLUSIVE)]
    if not scored:
        return None
    response = case.response_gates
    total = 0.0
    for g in scored:
        r = response.get(g.number)
        total += verdict_credit(g.verdict, r.verdict if r else None)
    return total / len(scored)


def _final_label(value: object) -> str | None:
    if value is None:
        return None
    text = re.sub(r"[\s\-]+", "_", str(value).strip().upper())
    return text or None


@metric("verdict_acc", section="§7.13", layers=("L7",))
def verdict_acc(case: Case) -> float | None:
    """Final VerdictAcc: the INVEST/DECLINE (or card action) verdict, INCONCLUSIVE per §7.3.

    1.0 when the response's final verdict equals the gold
    ``investment_verdict`` (case and spacing ignored), else 0.0; when the gold
    is INCONCLUSIVE, a committed verdict earns 0.5. No stated final verdict
    earns 0.0.

    Returns
    -------
    float in {0, 0.5, 1}, or None when the gold program has no decision target
    (excluded, never a placeholder, as §6.3 plans).

    References
    ----------
    InvestPhilBench §7.13 (L7), §7.3, §6.3 (VerdictAcc).
    """
    case.require_ok()
    gold = _final_label(case.gold.get("investment_verdict"))
    if gold is None:
        return None
    predicted = _final_label(case.parsed.get("final_verdict"))
    if predicted is None:
        return 0.0
    if gold == INCONCLUSIVE:
        return 1.0 if predicted == INCONCLUSIVE else 0.5
    return 1.0 if predicted == gold else 0.0


# =========================================================================== GRA


@dataclass(frozen=True)
class GateScore:
    """One gold gate's GRA components (§7.15)."""

    gate: int
    name_match: int
    verdict_match: int
    elements_match: float
    score: float


def _verdict_class(verdict: str | None) -> str | None:
    if verdict == REJECT:
        return "rejection"
    if verdict in (PROCEED, INCONCLUSIVE):
        return "qualifying"
    return None


def gra_gates(case: Case, *, threshold: float = DEFAULT_CONCEPT_THRESHOLD) -> list[GateScore]:
    """Per-gate GRA scores (see :func:`gra`), one per scored gold gate."""
    case.require_ok()
    matcher = ElementMatcher(case.encoder, threshold)
    response = case.response_gates
    out = []
    for g in case.gold_gates:
        if g.verdict not in (PROCEED, REJECT, INCONCLUSIVE):
            continue
        r = response.get(g.number)
        if r is None:
            out.append(GateScore(g.number, 0, 0, 0.0, 0.0))
            continue
        gold_class = _verdict_class(g.verdict)
        verdict_match = int(gold_class is not None and _verdict_class(r.verdict) == gold_class)
        elements = matcher.recall(g.required_elements, r.elements)
        out.append(GateScore(g.number, 1, verdict_match, elements, (1 + verdict_match + elements) / 3))
    return out


@metric("gra", section="§7.15", layers=("L4", "L7"))
def gra(case: Case, *, threshold: float = DEFAULT_CONCEPT_THRESHOLD) -> float | None:
    """Gate Reconstruction Accuracy: mean gate score over the scored gold gates.

    .. math:: s_g = 0 \\text{ if name\\_match} = 0,\\ \\text{else}\\
              (\\text{name\\_match} + \\text{verdict\\_match} + \\text{elements\\_match})/3

    - name_match: the response addresses the gate (the parser matched its
      name, an alias, a number or a paraphrase);
    - verdict_match: binary rejection class (REJECT) vs qualifying class
      (PROCEED). INCONCLUSIVE is not a GRA class; a gold or response
      INCONCLUSIVE gate, which does not kill, is in the qualifying class, so
      the §7.3 partial credit does not apply here. No verdict: 0.
    - elements_match: fraction of ``required_elements`` matched one-to-one
      by the gate's detected elements (:class:`ElementMatcher`); 1.0 for a
      gate with none required.

    Scored gates are those with a gold verdict (N/A gates are not scored).
    Hand-worked: name hit, wrong verdict class, 1 of 3 elements:
    (1 + 0 + 1/3)/3 = 4/9.

    Returns
    -------
    float in [0, 1], or None when no gate is scored.

    References
    ----------
    InvestPhilBench §7.15 "Gate Reconstruction Accuracy".
    """
    scores = gra_gates(case, threshold=threshold)
    if not scores:
        return None
    return sum(s.score for s in scores) / len(scores)


# =========================================================================== KCCS


def kccs_gates(case: Case, *, threshold: float = DEFAULT_CONCEPT_THRESHOLD) -> dict[int, float]:
    """Gate-level KCCS_g for each kill gate the chain reached (see :func:`kccs`)."""
    case.require_ok()
    matcher = ElementMatcher(case.encoder, threshold)
    kill = case.kill_gate_numbers
    response = case.response_gates
    out = {}
    for g in case.gold_gates:
        if g.number not in kill or g.verdict == NOT_APPLICABLE:
            continue
        r = response.get(g.number)
        out[g.number] = matcher.f1(g.required_elements, r.elements if r else ())
    return out


@metric("kccs", section="§7.7", layers=("L4", "L5", "L7", "W1"))
def kccs(case: Case, *, threshold: float = DEFAULT_CONCEPT_THRESHOLD) -> float | None:
    """Kill Criterion Coverage Score: mean element F1 over the kill gates.

    .. math:: \\mathrm{KCCS}_g = \\frac{2|E_g \\cap \\hat E_g|}{|E_g| + |\\hat E_g|},\\qquad
              \\mathrm{KCCS} = \\frac{1}{|G_K|}\\sum_{g \\in G_K} \\mathrm{KCCS}_g

    ``G_K``: the card's kill gates that the gold chain reached (a gate not
    reached, N/A, has no elements to cover). ``E_g``: the gold gate's
    ``required_elements`` (for kill gates "precisely the conditions under
    which it fires", §7.7 note). ``Ê_g``: the elements the parser detected at
    that gate (none if the response skips it). Matching is
    :class:`ElementMatcher`: numbers exactly (relative tolerance 1e-3, 10%
    for gold numbers marked approximate), concepts by cosine >= ``threshold``
    behind the negation and direction guards.

    Parameters
    ----------
    threshold : float
        Concept cosine threshold; default calibrated for all-MiniLM-L6-v2
        (:data:`DEFAULT_CONCEPT_THRESHOLD`). The paper's 0.82 belongs to
        text-embedding-3-large.

    Returns
    -------
    float in [0, 1], or None when the item has no reached kill gate.

    References
    ----------
    InvestPhilBench §7.7.
    """
    gates = kccs_gates(case, threshold=threshold)
    if not gates:
        return None
    return sum(gates.values()) / len(gates)


# =========================================================================== SAP@k

_TITLE_NORM = re.compile(r"[^a-z0-9]+")
_SECTION_NUMBER = re.compile(
    r"(?:\b(?:ch(?:apters?|s)?|sec(?:tions?|s)?|parts?)\.?|§§?)[ \t]*(?P<first>\d+|[ivxl]+\b)"
    r"(?:[ \t]*(?:-|\u2013|to)[ \t]*(?P<last>\d+|[ivxl]+\b))?",
    re.IGNORECASE,
)
_ROMAN = {"i": 1, "v": 5, "x": 10, "l": 50}


def _section_number(token: str) -> int | None:
    if token.isdigit():
        return int(token)
    values = [_ROMAN[c] for c in token.lower()]
    total = sum(-v if i + 1 < len(values) and v < values[i + 1] else v for i, v in enumerate(values))
    return total if total > 0 else None


def section_numbers(text: str) -> set[int]:
    """Chapter, section and part numbers named in ``text`` (SAP@3's context check, §7.8).

    Arabic or Roman numerals after ch./chapter/sec./section/part/§, and every
    number of a range ("ch. 5-7", up to 50 wide).

    >>> sorted(section_numbers("Ch. 20; Part III; chapters 5-7 and § 2"))
    [2, 3, 5, 6, 7, 20]
    """
    out: set[int] = set()
    for m in _SECTION_NUMBER.finditer(text):
        first = _section_number(m.group("first"))
        if first is None:
            continue
        last = _section_number(m.group("last")) if m.group("last") else None
        if last is not None and first < last <= first + 50:
            out.update(range(first, last + 1))
        else:
            out.add(first)
    return out


def investor_matches(entity: object, investor: str) -> bool:
    """Whether an extracted entity names ``investor`` (one rule at every SAP level).

    Case, punctuation and middle initials are ignored; the surname must
    match, and a stated first name or initial must agree. An acronym of the
    full name also matches ("NBIM" for Norges Bank Investment Management).

    Examples
    --------
    >>> [investor_matches(e, "Warren Buffett") for e in ("Buffett", "Warren E. Buffett", "W. Buffett", "Howard Buffett", "Munger")]
    [True, True, True, False, False]
    >>> investor_matches("NBIM", "Norges Bank Investment Management")
    True
    """
    if not entity:
        return False
    e = _TITLE_NORM.sub(" ", str(entity).lower()).split()
    g = _TITLE_NORM.sub(" ", investor.lower()).split()
    if not e or not g:
        return False
    if e == g:
        return True
    if len(e) == 1 and len(g) > 2 and e[0] == "".join(w[0] for w in g):
        return True
    if e[-1] != g[-1]:
        return False
    if len(e) == 1 or len(g) == 1:
        return True
    return e[0] == g[0] or (len(e[0]) == 1 and e[0] == g[0][0])


def _primary_investor_hit(case: Case, investor: InvestorProfile) -> bool:
    names = [a.get("investor") for a in case.parsed.get("attributions") or () if isinstance(a, Mapping)]
    names = [n for n in names if n]
    if not names:
        names = [c.get("entity") for c in case.parsed.get("citations") or () if isinstance(c, Mapping)]
        names = [n for n in names if n]
    if not names:
        return False
    hits = sum(1 for n in names if investor.matches(n))
    if hits == 0:
        return False
    others: dict[str, int] = {}
    for n in names:
        if not investor.matches(n):
            key = _TITLE_NORM.sub(" ", str(n).lower()).split()[-1] if str(n).strip() else ""
            others[key] = others.get(key, 0) + 1
    return hits >= max(others.values(), default=0)


def _title_key(title: object) -> str:
    text = _TITLE_NORM.sub(" ", str(title or "").lower()).strip()
    return text[4:] if text.startswith("the ") else text


def _document_hits(case: Case, investor: InvestorProfile) -> list[tuple[Mapping[str, Any], SourceRef]]:
    hits = []
    for c in case.parsed.get("citations") or ():
        if not isinstance(c, Mapping):
            continue
        entity = c.get("entity")
        if entity and not investor.matches(entity):
            continue
        year = _year_of(c.get("year"))
        title = _title_key(c.get("document"))
        if year is None or not title:
            continue
        for s in case.sources:
            if s.year is None or abs(year - s.year) > 1:
                continue
            if _edit_within(title, _title_key(s.document), 3):
                hits.append((c, s))
    return hits


def _context_hit(case: Case, citation: Mapping[str, Any], source: SourceRef) -> bool:
    if not source.context:
        return False
    stated = " ".join(str(citation.get(k) or "") for k in ("context", "section", "chapter", "locator"))
    gold_numbers = section_numbers(source.context)
    if gold_numbers:
        for haystack in (stated, case.text):
            if gold_numbers & section_numbers(haystack):
                return True
        return False
    key = _norm(source.context)
    if not key:
        return False
    if stated.strip() and _edit_within(_norm(stated), key, 3):
        return True
    return f" {key} " in f" {_norm(case.text)} "


def sap_at_k(case: Case, k: int) -> float | None:
    """Source Attribution Precision at level ``k`` for one response (§7.8).

    One entity matcher (:func:`investor_matches`) at every level, and each
    level requires the one below, so SAP@3 <= SAP@2 <= SAP@1 holds for every
    response (the cascade the W1 extractor broke):

    1. investor: the response's primary attributed investor (the most often
       attributed; the gold investor, by name or registry alias, must have
       at least as many attributions as any other; citations' entities when
       there are no attributions) is the gold investor;
    2. document: level 1, and a citation (entity absent or the gold
       investor) whose year is within ±1 of a gold source's year and whose
       title is within edit distance 3 of it (case, punctuation and a leading
       "The" ignored);
    3. context: level 2, and for that same citation and source the gold
       chapter/section is verified: one of its numbers (:func:`section_numbers`:
       Arabic or Roman, ranges expanded) in the citation's locator or in the
       response text, or (no number) its words in either. This is a
       deterministic stand-in for the paper's LLM-judge check, lenient in one
       way: a matching number anywhere in the response counts.

    Returns
    -------
    float in {0, 1}, or None when the level has no ground truth (no investor;
    no gold source for k >= 2; no source context for k = 3).

    Raises
    ------
    ScoreError
        ``k`` not in 1..3, or a parse failure.

    References
    ----------
    InvestPhilBench §7.8.
    """
    case.require_ok()
    if k not in (1, 2, 3):
        raise ScoreError(f"SAP level must be 1, 2 or 3, not {k}", rule="sap", name=str(k))
    if case.investor is None:
        return None
    if k >= 2 and not case.sources:
        return None
    if k == 3 and not any(s.context for s in case.sources):
        return None
    if not _primary_investor_hit(case, case.investor):
        return 0.0
    if k == 1:
        return 1.0
    hits = _document_hits(case, case.investor)
    if k == 2:
        return 1.0 if hits else 0.0
    return 1.0 if any(_context_hit(case, c, s) for c, s in hits) else 0.0


@metric("sap@1", section="§7.8", layers=("L1", "L7"))
def sap1(case: Case) -> float | None:
    """SAP@1, investor attribution: see :func:`sap_at_k` (§7.8)."""
    return sap_at_k(case, 1)


@metric("sap@2", section="§7.8", layers=("L2", "L4", "L5"))
def sap2(case: Case) -> float | None:
    """SAP@2, document attribution (year ±1, title edit distance <= 3): see :func:`sap_at_k` (§7.8)."""
    return sap_at_k(case, 2)


@metric("sap@3", section="§7.8", layers=("L3", "W1"))
def sap3(case: Case) -> float | None:
    """SAP@3, context attribution (chapter/section): see :func:`sap_at_k` (§7.8)."""
    return sap_at_k(case, 3)


# =========================================================================== CKCA

#: Kill-gate numbers the compound-kill components sit at (§7.10).
CKCA_GATES = {"NBIM": (2, 3, 5), "CPPIB": (2,), "PIF": (2, 3)}
_CPPIB_MECHANISM = "factor-substitutable"


def _mechanism_stated(case: Case, number: int, mechanism: str, matcher: ElementMatcher) -> bool:
    gate = case.response_gates.get(number)
    if gate is None:
        return False
    if gate.elements and bool(matcher.match_matrix([_human(mechanism)], gate.elements).any()):
        return True
    key = _norm(mechanism)
    text = case.gate_text(number)
    return bool(key) and f" {key} " in f" {_norm(text)} " and not is_negated(text)


def _component(case: Case, number: int, matcher: ElementMatcher) -> bool:
    """1[K̂_g = K_g]: the response's kill at gate g equals the gold one (both none,
    or both REJECT with the gold mechanism stated)."""
    gold = next((g for g in case.gold_gates if g.number == number), None)
    r = case.response_gates.get(number)
    rejected = r is not None and r.verdict == REJECT
    if gold is None or not gold.kill_triggered:
        return not rejected
    label = (case.kill_gates or {}).get(number) or gold.kill_criterion or ""
    return rejected and _mechanism_stated(case, number, label, matcher)


@metric("ckca", section="§7.10", layers=("W1",))
def ckca(case: Case, *, threshold: float = DEFAULT_CONCEPT_THRESHOLD) -> float | None:
    """Compound Kill Criterion Accuracy for the institutional cards (§7.10).

    - NBIM: :math:`\\mathbf{1}[\\hat g^* = g^*]` over the independent kill
      gates {K2, K3, K5}; ``g*`` is the set of them whose kill the gold
      triggered, ``ĝ*`` the set the response REJECTs. The card is parallel,
      so two components can fire at once (a coal miner the Council also
      recommends excluding); with one trigger this is the paper's single-gate
      indicator, and naming an extra component or missing one scores 0.
    - CPPIB: :math:`\\mathbf{1}[\\hat K_2 = \\text{factor-substitutable}]
      \\times \\mathbf{1}[\\hat v_2 = \\mathrm{REJECT}]`: the mechanism is
      stated at gate 2 (one of its detected elements matches the mechanism,
      or its text says it, un-negated) and gate 2 is REJECTed.
    - PIF: :math:`(\\mathbf{1}[\\hat K_2 = K_2] + \\mathbf{1}[\\hat K_3 =
      K_3])/2`; ``K_g`` is the gold kill at gate g (the card's kill label
      when triggered, else none) and the response's ``K̂_g`` is its REJECT
      with the stated mechanism, else none.

    CKCA asks which component *triggered* REJECT, so it applies only when
    the gold triggered one of the institution's kill components; otherwise,
    and for non-institutional cards, it is None.

    Returns
    -------
    float in [0, 1] or None.

    References
    ----------
    InvestPhilBench §7.10, §5.3.
    """
    case.require_ok()
    institution = (case.institution or "").upper()
    if institution not in CKCA_GATES:
        return None
    components = CKCA_GATES[institution]
    gold = {g.number: g for g in case.gold_gates}
    triggered = [n for n in components if n in gold and gold[n].kill_triggered]
    if not triggered:
        return None
    matcher = ElementMatcher(case.encoder, threshold)
    response = case.response_gates
    if institution == "NBIM":
        predicted = {n for n in components if n in response and response[n].verdict == REJECT}
        return 1.0 if predicted == set(triggered) else 0.0
    if institution == "CPPIB":
        r = response.get(2)
        mechanism = (case.kill_gates or {}).get(2) or gold[2].kill_criterion or _CPPIB_MECHANISM
        stated = _mechanism_stated(case, 2, mechanism, matcher) or _mechanism_stated(case, 2, _CPPIB_MECHANISM, matcher)
        return 1.0 if (r is not None and r.verdict == REJECT and stated) else 0.0
    return sum(1.0 for n in components if _component(case, n, matcher)) / len(components)


# =========================================================================== ContradictionCoverage

_SENTENCE_END = re.compile(r"(?<=[.!?])\s+|\n+")


def split_sentences(text: str) -> list[str]:
    """Split on sentence-final punctuation and line breaks; drop empty pieces.

    >>> split_sentences("First. Then this!\\n- a bullet")
    ['First.', 'Then this!', '- a bullet']
    """
    return [s.strip() for s in _SENTENCE_END.split(text) if s and s.strip()]


@metric("contradiction_coverage", section="§7.11", layers=("L6",))
def contradiction_coverage(case: Case, *, threshold: float = DEFAULT_CONCEPT_THRESHOLD) -> float | None:
    """ContradictionCoverage :math:`= |\\{c \\in C : c \\text{ detected}\\}| / |C|` (FM-2).

    A contradiction/tension ``c`` of the PKB set ``C`` is detected when its
    normalised words occur in the response, or some response sentence has
    cosine >= ``threshold`` with it. The paper's 0.78 was set for
    text-embedding-3-large; the default here is the MiniLM threshold
    calibrated for KCCS (one calibration, one model).

    Returns
    -------
    float in [0, 1], or None when ``C`` is empty.

    References
    ----------
    InvestPhilBench §7.11 (FM-2), §7.13 (L6 composite).
    """
    case.require_ok()
    contradictions = [c for c in case.contradictions if c.strip()]
    if not contradictions:
        return None
    text_key = f" {_norm(case.text)} "
    pending = [c for c in contradictions if f" {_norm(c)} " not in text_key]
    detected = len(contradictions) - len(pending)
    sentences = split_sentences(case.text)
    if pending and sentences:
        vectors = embed(case.resolved_encoder(), [*pending, *sentences])
        sims = cosine_matrix(vectors[: len(pending)], vectors[len(pending) :])
        detected += int(np.sum(sims.max(axis=1) >= threshold))
    return detected / len(contradictions)


# =========================================================================== IVP / SDI


def _distance(cos: float) -> float:
    # 1 - cos with cos clipped to [0, 1]: the paper states IVP and SDI lie in
    # [0, 1]; sentence embeddings are almost never negatively correlated.
    return 1.0 - min(1.0, max(0.0, cos))


@group_metric("sdi", section="§7.9", layers=("L5",))
def sdi(a: str, b: str, *, encoder: Encoder | None = None) -> float:
    """Stylistic Distinctness Index :math:`\\mathrm{SDI}_{i,j} = 1 - \\cos(e(R_i), e(R_j))`.

    Identical to the pairwise micro-IVP :math:`\\mathrm{IVP}_{i,j}`. The
    cosine is clipped to [0, 1] so SDI lies in [0, 1] as the paper states.

    Parameters
    ----------
    a, b : str
        Two responses (about investors i and j, same question).
    encoder : Encoder, optional

    Returns
    -------
    float in [0, 1]

    References
    ----------
    InvestPhilBench §7.9.
    """
    vectors = embed(encoder if encoder is not None else default_encoder(), [a, b])
    return _distance(float(vectors[0] @ vectors[1]))


def pairwise_sdi(responses: Mapping[str, str], *, encoder: Encoder | None = None) -> dict[tuple[str, str], float]:
    """SDI for every unordered pair of investors (keys sorted), one encoder batch.

    Parameters
    ----------
    responses : mapping investor -> response text (same question)

    Returns
    -------
    dict (investor_i, investor_j) -> float in [0, 1], with investor_i < investor_j.
    """
    names = sorted(responses)
    if len(names) < 2:
        return {}
    vectors = embed(encoder if encoder is not None else default_encoder(), [responses[n] for n in names])
    sims = vectors @ vectors.T
    return {
        (names[i], names[j]): _distance(float(sims[i, j])) for i in range(len(names)) for j in range(i + 1, len(names))
    }


def ivp_table(
    responses: Mapping[str, Mapping[str, str]], *, encoder: Encoder | None = None
) -> dict[str, float | None]:
    """IVP for every investor at once (one encoder batch).

    .. math::

        \\mathrm{IVP}(I_i) = \\frac{1}{|\\mathcal R_i|}\\sum_{R_{i,j} \\in \\mathcal R_i}
        \\frac{1}{|I| - 1}\\sum_{k \\ne i}\\bigl(1 - \\cos(e(R_{i,j}), e(R_{k,j}))\\bigr)

    Parameters
    ----------
    responses : mapping investor -> (question id -> response text)
        ``R_{i,j}``: the response about investor ``i`` on question ``j``.
    encoder : Encoder, optional

    Returns
    -------
    dict investor -> float in [0, 1] or None
        None for an investor none of whose questions has a response about
        another investor. When some investors lack a response on question j,
        the inner mean runs over those present (|I| - 1 becomes their
        count). Cosines are clipped to [0, 1] as in :func:`sdi`.

    References
    ----------
    InvestPhilBench §7.9.
    """
    keys = [(i, q) for i in sorted(responses) for q in sorted(responses[i])]
    if not keys:
        return {}
    vectors = embed(encoder if encoder is not None else default_encoder(), [responses[i][q] for i, q in keys])
    row = {key: n for n, key in enumerate(keys)}
    by_question: dict[str, list[str]] = {}
    for i, q in keys:
        by_question.setdefault(q, []).append(i)
    out: dict[str, float | None] = {}
    for investor in sorted(responses):
        per_question = []
        for q in sorted(responses[investor]):
            others = [k for k in by_question[q] if k != investor]
            if not others:
                continue
            v = vectors[row[(investor, q)]]
            per_question.append(sum(_distance(float(v @ vectors[row[(k, q)]])) for k in others) / len(others))
        out[investor] = sum(per_question) / len(per_question) if per_question else None
    return out


@group_metric("ivp", section="§7.9", layers=("L5", "L8", "W1"))
def ivp(responses: Mapping[str, Mapping[str, str]], investor: str, *, encoder: Encoder | None = None) -> float | None:
    """Investor Voice Precision of one investor: see :func:`ivp_table` (§7.9).

    IVP >= 0.70: voice well preserved; IVP < 0.50: FM-4 (Voice Diffusion).

    Raises
    ------
    ScoreError
        ``investor`` has no responses.
    """
    if investor not in responses:
        raise ScoreError(f"no responses about {investor!r}", rule="ivp", name=investor)
    return ivp_table(responses, encoder=encoder)[investor]

