"""What every metric reads about one (item, response) pair: :class:`Case` and its inputs.

Gold gates, response gates, sources, investor profiles (paper §6.3, §7.5, §11.6)
and :func:`investor_matches`, the one rule for "does this entity name that investor".
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Mapping

from ipb.errors import IpbError, ScoreError
from ipb.scoring.embeddings import Encoder, default_encoder
from ipb.scoring.metrics._labels import INCONCLUSIVE, NOT_APPLICABLE, PROCEED, REJECT, normalize_verdict  # noqa: F401


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



_TITLE_NORM = re.compile(r"[^a-z0-9]+")

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


