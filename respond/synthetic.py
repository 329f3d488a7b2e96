"""Synthetic responses from gold programs, with controlled, recorded corruptions.

The metric calibration harness of issue 5 (item 4): :func:`synthetic_responses`
renders, for each item, a plausible answer text from the item's gold
reasoning program (paper §6.3, Appendix E), then applies named corruptions to
it, each a known defect a metric should react to (what it should move in
brackets):

- ``none``: the gold program, faithfully (every metric at its ceiling);
- ``drop_gate``: leaves out one reached gate that the answer names nowhere
  else (GCF, OGRS, GRA, per-gate VerdictAcc; the gates still stated keep
  their verdicts);
- ``swap_gates``: exchanges two adjacent reached gates (Kendall tau and
  OGRS, not GCF; nothing on a ``parallel_threshold`` card, which has no
  prescribed order);
- ``flip_verdict``: the opposite verdict at one reached gate (per-gate
  VerdictAcc, GRA);
- ``flip_final``: the opposite final verdict (final VerdictAcc);
- ``omit_kill_element``: drops one required element of one decided kill
  gate (KCCS, GRA; FM-3 only if that leaves under half the kill gates
  detected);
- ``omit_kill_criteria``: names every reached kill gate without any of its
  elements or its kill label (KCCS, GRA, FM-3);
- ``invent_gate``: adds a gate the card lacks, numbered past its last gate
  (FM-1);
- ``wrong_year``: cites the answer's source with a later, wrong year (SAP@2
  and SAP@3; FM-2 when the item gives the true year; FM-6 where the year
  makes the framework over 10 years younger than an L6-L8 scenario or falls
  after a hard career boundary);
- ``borrow_phrases``: speaks in the distinctive phrases of an investor of
  another school (FM-4 persona inversion).

A corruption that cannot apply to an item (there is no second reached gate
to swap, no kill gate, no dated source) leaves the text as it is and is
recorded with ``applied: false`` and why, so a calibration run can tell
"did not move" from "was not done". Several corruptions combine with ``+``
(``"drop_gate+wrong_year"``). A corruption is one function registered with
:func:`corruption`.

The text uses a numbered-gate layout that :func:`ipb.scoring.parse.parse_response`
reads back::

    Warren Buffett's Buffett Acquisition Checklist, applied to the scenario.
    Warren Buffett stresses be fearful when others are greedy.
    Source: "Berkshire Hathaway Chairman's Letter to Shareholders" (1977), four criteria: ...

    Gate 1: Circle of Competence \u2014 PROCEED. Considered: subscription economics; ...
    Gate 5: Margin of Safety \u2014 REJECT. Considered: price $50B; intrinsic ~$25B; 2x premium. Kill criterion: price exceeds intrinsic value.
    Gate 6: Holding Period Economics \u2014 N/A, not reached.

    Final verdict: DECLINE
    In Buffett's terms, the case rests on be fearful when others are greedy.

The ``Source:`` line cites a card source with the chapter or section it
gives for the framework (the context SAP@3 verifies, paper §7.8), as a
faithful answer would; :func:`_choose_citation` says which source. Text
outside a gate's own line names no gate of the card wherever the card
allows: voice phrases that would are left out, a locator that would is
written as its chapter/section references alone ("ch. 7, ch. 13"), and a
source whose title or locator must name a gate is cited only when no other
source with a locator will do (the 1977 letter's "four criteria: ...,
very attractive price" on the Buffett checklist). ``drop_gate`` never drops
a gate the answer names outside its line, since the parser reads such a
mention as the gate addressed. L8 items get one ``## investor: card``
section per card.

Everything random (which gate, which peer, which invented name) comes from
``random.Random`` seeded with the run seed, the item id and the corruption
spec, so the same items and seed give the same responses.

References
----------
Issue 5 item 4 (calibration harness); paper §7.3, §7.6-§7.11, §7.13.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Callable, Iterable, Mapping, Sequence

from rapidfuzz import fuzz

from ipb.errors import IpbError, ScoreError
from ipb.scoring.registry import Entry, Registry
from ipb.scoring.parse import MAX_TITLE_CHARS
from ipb.perturb._golds import golds_of, scenario_year_of

__all__ = [
    "SYNTHETIC_VERSION",
    "PlannedGate",
    "Plan",
    "NotApplicable",
    "CorruptionFn",
    "corruptions",
    "corruption",
    "corruption_names",
    "parse_corruption_spec",
    "plan_for_gold",
    "render_plan",
    "golds_of",
    "synthetic_responses",
    "get_corruption",
    "scenario_year_of",
    "bundled_items",
]

#: Version of the response records :func:`synthetic_responses` writes.
SYNTHETIC_VERSION = 1

#: Gate names no bundled card uses: the pool ``invent_gate`` draws from.
INVENTED_GATE_NAMES = (
    "Dividend Reinvestment Policy",
    "Insider Ownership Threshold",
    "Technical Momentum Confirmation",
    "Analyst Consensus Check",
    "Social Media Sentiment Screen",
    "Headquarters Location Review",
    "Brand Awareness Survey",
    "Short Interest Filter",
)

_PASS, _FAIL = "pass", "fail"


class NotApplicable(Exception):
    """Raised by a corruption that cannot apply to this item; the message says why."""


@dataclass
class PlannedGate:
    """One gate as the synthetic answer will state it."""

    number: int
    name: str
    verdict: str
    elements: list[str]
    kill_label: str | None = None
    invented: bool = False


@dataclass
class Plan:
    """What a synthetic answer says about one card, before rendering.

    Corruptions edit a plan in place; :func:`render_plan` turns it into text.
    """

    card_id: str
    card_name: str
    investor: str
    item_id: str
    gates: list[PlannedGate]
    final_verdict: str
    pass_outcome: str
    fail_outcome: str
    card_gate_names: tuple[str, ...]
    sources: tuple[tuple[str, int, str | None], ...]
    citation: tuple[str, int, str | None] | None
    voice: list[str]
    scenario_year: int | None = None
    notes: list[str] = field(default_factory=list)

    def reached(self) -> list[PlannedGate]:
        """Gates with a decided or INCONCLUSIVE verdict (not N/A, not invented)."""
        return [g for g in self.gates if not g.invented and g.verdict in ("PROCEED", "REJECT", "INCONCLUSIVE")]


#: ``fn(plan, rng) -> details``: edit ``plan`` in place and say what was done;
#: raise :class:`NotApplicable` when the item gives nothing to corrupt.
CorruptionFn = Callable[[Plan, random.Random], dict[str, Any]]

#: Registry of corruptions, filled by :func:`corruption`.
corruptions: Registry[CorruptionFn] = Registry("corruption")
#: Decorator registering a corruption (``@corruption("drop_gate", section="§7.6")``).
corruption = corruptions.register


def corruption_names() -> list[str]:
    """Every registered corruption, in registration order (``none`` first)."""
    return corruptions.names()


# --------------------------------------------------------------------------- the corruptions


@corruption("none", section="§6.3", bounds=None)
def none(plan: Plan, rng: random.Random) -> dict[str, Any]:
    """No corruption: the gold program rendered faithfully (every metric at its ceiling)."""
    return {}


@corruption("drop_gate", section="§7.6", bounds=None)
def drop_gate(plan: Plan, rng: random.Random) -> dict[str, Any]:
    """Leave out one reached gate, one the answer names nowhere else (not in another
    gate's line, not in the cited title or locator): GCF, OGRS, GRA and
    per-gate VerdictAcc drop; the gates still stated keep their verdicts."""
    reached = plan.reached()
    if len(reached) < 2:
        raise NotApplicable("fewer than two reached gates (dropping the only one leaves nothing to parse)")
    card = _card(plan.card_id)
    droppable = [g for g in reached if not _named_elsewhere(g, plan, card)]
    if not droppable:
        raise NotApplicable("every reached gate is named elsewhere in the answer (another gate's line or the citation)")
    gate = rng.choice(droppable)
    plan.gates.remove(gate)
    return {"gate": gate.number, "name": gate.name}


def _named_elsewhere(gate: PlannedGate, plan: Plan, card: Any) -> bool:
    """Whether the answer names ``gate`` outside its own line: in another stated gate's
    elements or kill label, or in the cited title or locator (dropping it would leave
    it mentioned, and the parser reads a mention as the gate addressed)."""
    own = next((g for g in card.gates if g.number == gate.number), None)
    if own is None:
        return False
    vocabulary = [v for v in (_norm(x) for x in (own.name, *own.aliases, own.id)) if v]
    texts = [_human(t) for g in plan.gates if g is not gate for t in (*g.elements, g.kill_label or "")]
    if plan.citation is not None:
        texts.extend(t for t in (plan.citation[0], plan.citation[2]) if t)
    return any(_mentions(t, vocabulary) for t in texts)


@corruption("swap_gates", section="§7.6", bounds=None)
def swap_gates(plan: Plan, rng: random.Random) -> dict[str, Any]:
    """Exchange the positions of two adjacent reached gates: Kendall tau and OGRS drop, GCF does not."""
    reached = plan.reached()
    if len(reached) < 2:
        raise NotApplicable("fewer than two reached gates")
    k = rng.randrange(len(reached) - 1)
    a, b = reached[k], reached[k + 1]
    i, j = plan.gates.index(a), plan.gates.index(b)
    plan.gates[i], plan.gates[j] = b, a
    return {"gates": [a.number, b.number]}


_FLIP = {"PROCEED": "REJECT", "REJECT": "PROCEED", "INCONCLUSIVE": "REJECT"}


@corruption("flip_verdict", section="§7.3", bounds=None)
def flip_verdict(plan: Plan, rng: random.Random) -> dict[str, Any]:
    """State the opposite verdict at one reached gate (PROCEED <-> REJECT,
    INCONCLUSIVE -> REJECT): per-gate VerdictAcc and GRA drop."""
    reached = plan.reached()
    if not reached:
        raise NotApplicable("no reached gate")
    gate = rng.choice(reached)
    old = gate.verdict
    gate.verdict = _FLIP[old]
    if gate.verdict != "REJECT":
        gate.kill_label = None
    return {"gate": gate.number, "from": old, "to": gate.verdict}


@corruption("flip_final", section="§7.13", bounds=None)
def flip_final(plan: Plan, rng: random.Random) -> dict[str, Any]:
    """State the opposite final verdict (the card's pass <-> fail outcome; a gold
    INCONCLUSIVE becomes the fail outcome): final VerdictAcc drops."""
    old = plan.final_verdict
    if old == plan.pass_outcome:
        new = plan.fail_outcome
    elif old == plan.fail_outcome:
        new = plan.pass_outcome
    else:
        new = plan.fail_outcome
    plan.final_verdict = new
    return {"from": old, "to": new}


def _kill_gates(plan: Plan) -> list[PlannedGate]:
    return [g for g in plan.reached() if g.kill_label is not None or g.number in _plan_kill_numbers(plan)]


def _plan_kill_numbers(plan: Plan) -> set[int]:
    card = _card(plan.card_id)
    return {g.number for g in card.kill_gates}


@corruption("omit_kill_element", section="§7.7", bounds=None)
def omit_kill_element(plan: Plan, rng: random.Random) -> dict[str, Any]:
    """Drop one required element at one decided kill gate (the triggered one when
    there is one): KCCS and GRA drop; FM-3 fires only when it leaves fewer than
    half the kill gates detected."""
    kills = [g for g in _kill_gates(plan) if g.verdict in ("PROCEED", "REJECT") and g.elements]
    if not kills:
        raise NotApplicable("no decided kill gate with required elements")
    triggered = [g for g in kills if g.kill_label is not None]
    gate = rng.choice(triggered or kills)
    element = gate.elements.pop(rng.randrange(len(gate.elements)))
    return {"gate": gate.number, "element": element}


@corruption("omit_kill_criteria", section="§7.11", bounds=None)
def omit_kill_criteria(plan: Plan, rng: random.Random) -> dict[str, Any]:
    """Name every kill gate without its criterion: every required element and kill
    label of every reached kill gate is dropped (FM-3's "flat checklist"). KCCS,
    GRA drop and FM-3 fires."""
    kills = [g for g in _kill_gates(plan) if g.elements or g.kill_label]
    if not kills:
        raise NotApplicable("no reached kill gate with elements")
    dropped = {}
    for g in kills:
        dropped[str(g.number)] = [*g.elements, *([g.kill_label] if g.kill_label else [])]
        g.elements = []
        g.kill_label = None
    return {"gates": [g.number for g in kills], "dropped": dropped}


def _unlike_card(name: str, plan: Plan) -> bool:
    low = name.lower()
    return all(fuzz.token_set_ratio(low, n.lower()) < 60 for n in plan.card_gate_names)


@corruption("invent_gate", section="§7.11", bounds=None)
def invent_gate(plan: Plan, rng: random.Random) -> dict[str, Any]:
    """Add a gate the card lacks, numbered past the card's last gate, at a random
    place in the list, with a PROCEED verdict: FM-1 fires; the real gates are untouched."""
    names = [n for n in INVENTED_GATE_NAMES if _unlike_card(n, plan)]
    if not names:  # pragma: no cover - every bundled card leaves some
        raise NotApplicable("every invented-gate name resembles a gate of the card")
    name = rng.choice(names)
    number = max(len(plan.card_gate_names), max((g.number for g in plan.gates), default=0)) + 1
    at = rng.randrange(len(plan.gates) + 1)
    plan.gates.insert(at, PlannedGate(number, name, "PROCEED", [], invented=True))
    return {"gate": number, "name": name, "position": at}


#: Smallest distance from the true year of a ``wrong_year`` citation (the paper's
#: 1986 -> 1990 owner-earnings error is 4 years off).
WRONG_YEAR_SHIFT = 4


@corruption("wrong_year", section="§7.11", bounds=None)
def wrong_year(plan: Plan, rng: random.Random) -> dict[str, Any]:
    """Cite the answer's source with a later year: the first at least
    ``WRONG_YEAR_SHIFT`` years after the true one and more than a year from
    every card source of the same title (the paper's 1986 -> 1990 error).
    SAP@2 and SAP@3 drop; FM-2 fires when the item states the true year and
    the answer gives no other; FM-6 fires where the later year makes the
    cited framework more than 10 years younger than an L6-L8 scenario, or
    falls after a hard career boundary of the investor."""
    if plan.citation is None:
        raise NotApplicable("the answer cites no dated source")
    document, year, locator = plan.citation
    same_title = [y for d, y, _ in plan.sources if d == document]
    candidate = year + WRONG_YEAR_SHIFT
    while any(abs(candidate - y) <= 1 for y in same_title):
        candidate += 1
    plan.citation = (document, candidate, locator)
    return {"document": document, "from": year, "to": candidate}


@corruption("borrow_phrases", section="§7.11", bounds=None)
def borrow_phrases(plan: Plan, rng: random.Random) -> dict[str, Any]:
    """Speak in another investor's voice: the voice paragraph is rewritten in the
    distinctive phrases of an investor of another school (still attributed to
    the card's investor), and the card's investor's own phrases are left out:
    FM-4 (persona inversion) fires; the gate trace is untouched."""
    peers = _peer_phrases(plan)
    if not peers:
        raise NotApplicable("no other investor with distinctive phrases unlike this card's gates")
    name, phrases = peers[rng.randrange(len(peers))]
    plan.voice = list(phrases)
    return {"investor": name, "phrases": list(phrases)}


# --------------------------------------------------------------------------- building a plan


def _card(card_id: str) -> Any:
    from ipb.engine.registry import find_card

    return _card_at(str(find_card(card_id)))  # the file the current card search finds


@lru_cache(maxsize=256)
def _card_at(path: str) -> Any:
    from ipb.engine.registry import compiled_card

    return compiled_card(path).card


def _norm(text: str) -> str:
    return " ".join(re.sub(r"[^a-z0-9]+", " ", text.lower()).split())


def _gate_vocabulary(card: Any) -> list[str]:
    """Every gate name and alias of ``card``, normalised: text outside a gate's own line must not contain them."""
    words = []
    for g in card.gates:
        for label in (g.name, *g.aliases, g.id):
            n = _norm(label)
            if n:
                words.append(n)
    return words


#: Gate verdict words a voice phrase must not contain (it would read as a verdict).
_VERDICT_WORDS = ("proceed", "reject", "pass", "fail", "kill", "filter", "inconclusive")


def _outcome_words(card: Any) -> list[str]:
    words = {str(v) for v in card.outcomes.values()}
    for g in card.gates:
        for b in g.branches.values():
            words.update((b.pass_outcome, b.fail_outcome))
    return [_norm(w) for w in words if _norm(w)] + list(_VERDICT_WORDS)


def _mentions(text: str, vocabulary: Sequence[str]) -> bool:
    """Whether ``text`` contains one of ``vocabulary`` as whole words (case and punctuation ignored)."""
    t = f" {_norm(text)} "
    return any(f" {v} " in t for v in vocabulary)


def _clashes(phrase: str, card: Any) -> bool:
    """A voice phrase that names a gate, sits inside a gate's name, or says an outcome or verdict word."""
    n = _norm(phrase)
    vocabulary = _gate_vocabulary(card)
    return (_mentions(phrase, vocabulary) or any(f" {n} " in f" {v} " for v in vocabulary)
            or _mentions(phrase, _outcome_words(card)))


@lru_cache(maxsize=256)
def _registry() -> dict[str, Any]:
    try:
        from ipb.engine.investors import load_investors

        return dict(load_investors())
    except (ImportError, IpbError):  # pragma: no cover - registry missing or broken
        return {}


def _voice_order(phrases: Iterable[str]) -> list[str]:
    """Phrases with a full stop ("Mr. Market") last: an attributed claim is read up to its first full stop."""
    return sorted(phrases, key=lambda p: "." in p)


def _own_phrases(card: Any) -> list[str]:
    """The card investor's distinctive phrases (paper Table 8) that do not clash with the card."""
    for investor in _registry().values():
        if investor.name == card.investor:
            return _voice_order(p for p in investor.distinctive_phrases if not _clashes(p, card))
    return []


def _peer_phrases(plan: Plan) -> list[tuple[str, tuple[str, ...]]]:
    """Investors of another school with at least three phrases that do not clash with the card."""
    card = _card(plan.card_id)
    everyone = list(_registry().values())
    own = next((i for i in everyone if i.name == card.investor), None)
    out = []
    for investor in everyone:
        if investor.name == card.investor or (own is not None and investor.school == own.school):
            continue
        phrases = tuple(_voice_order(p for p in investor.distinctive_phrases if not _clashes(p, card)))
        if len(phrases) >= 3:
            out.append((investor.name, phrases))
    return out


#: Longest source title the citation is written with (the parser reads a quoted
#: title of at most this many characters, so a longer one is cited only when no
#: source with a shorter title will do).
_SHORT_TITLE = MAX_TITLE_CHARS

#: FM-6's vintage gap (paper §7.11): a framework cited more than this many years
#: after the scenario's year is an anachronistic application.
_ANACHRONISM_GAP = 10

#: A year as the parser reads one (a four-digit year from 1600 to 2099).
_YEAR_IN_TEXT = re.compile(r"(?<!\d)(?:1[6-9]|20)\d\d(?!\d)")

#: A numbered chapter, section or part reference in a locator ("ch. 7",
#: "Chapter 20", "Part 1"): where the passage is, without its topic words.
_SECTION_REF = re.compile(r"\b(?:ch(?:apter)?|sec(?:tion)?|part)\.?\s*\d+|\u00a7\s*\d+", re.IGNORECASE)


def _cited_locator(locator: str | None, vocabulary: Sequence[str]) -> tuple[str | None, bool]:
    """How a faithful answer writes a source's locator, and whether that text names a gate.

    The locator as the card gives it when it names no gate of the card; else
    its numbered chapter/section/part references alone ("ch. 7, ch. 13")
    when it has some, which locate the passage (and are what SAP@3 checks
    for a numbered context) without the topic words that name a gate; else
    the locator as given, the only way to state that context, which does
    name a gate.

    Examples
    --------
    >>> _cited_locator("ch. 7 (the six categories), ch. 13 (famous numbers)", ["six categories"])
    ('ch. 7, ch. 13', False)
    >>> _cited_locator("four criteria: very attractive price", ["attractive price"])
    ('four criteria: very attractive price', True)
    >>> _cited_locator(None, ["attractive price"])
    (None, False)
    """
    if not locator:
        return None, False
    if not _mentions(locator, vocabulary):
        return locator, False
    refs = ", ".join(m.group(0) for m in _SECTION_REF.finditer(locator))
    if refs and not _mentions(refs, vocabulary):
        return refs, False
    return locator, True


def _choose_citation(card: Any, scenario_year: int | None) -> tuple[str, int, str | None] | None:
    """The source a faithful answer cites, as (title, year, locator as written or None).

    A faithful answer cites a card source the parser can read back (paper
    §7.8's SAP@2 needs its title and year) together with the chapter or
    section that source gives for the framework (SAP@3 verifies it): the
    locator as :func:`_cited_locator` writes it. Among the dated sources, in
    order of preference, the chosen one

    1. has a title of at most ``_SHORT_TITLE`` characters;
    2. has a locator (without one, SAP@3 has nothing to verify);
    3. is at most ``_ANACHRONISM_GAP`` years younger than the scenario
       (a younger one makes FM-6 fire);
    4. names no gate of the card in its title or written locator (the only
       gate mentions are then the gate lines, and ``drop_gate`` can drop
       any gate);
    5. was published by the scenario's year;
    6. has no year in its locator (the parser reads one as a year the
       answer mentions, and FM-2 then finds the answer less committed to
       the citation's year, so ``wrong_year`` fires it less often);
    7. of those published after the scenario, is the earliest; otherwise
       comes first in the card.

    A year-less scenario makes every source "by the scenario's year". None
    when the card has no dated source.
    """
    vocabulary = _gate_vocabulary(card)
    ranked = []
    for index, s in enumerate(card.sources):
        if not isinstance(s.year, int) or isinstance(s.year, bool):
            continue
        locator, names_gate = _cited_locator(s.locator, vocabulary)
        late = scenario_year is not None and s.year > scenario_year
        key = (
            len(s.document) > _SHORT_TITLE,
            locator is None,
            scenario_year is not None and s.year - scenario_year > _ANACHRONISM_GAP,
            names_gate or _mentions(s.document, vocabulary),
            late,
            locator is not None and _YEAR_IN_TEXT.search(locator) is not None,
            s.year if late else 0,
            index,
        )
        ranked.append((key, (s.document, s.year, locator)))
    return min(ranked)[1] if ranked else None


def plan_for_gold(item_id: str, gold: Mapping[str, Any], *, scenario_year: int | None = None) -> Plan:
    """The faithful answer plan for one gold program (``{"framework", "gold_program",
    "investment_verdict", ...}``).

    Raises
    ------
    ScoreError
        The gold program is malformed or names a card that cannot be loaded.
    """
    framework = gold.get("framework")
    if not isinstance(framework, str):
        raise ScoreError(f"item {item_id}: gold program names no framework", rule="grp", name=item_id)
    try:
        card = _card(framework)
    except IpbError as exc:
        raise ScoreError(f"item {item_id}: card {framework!r} cannot be loaded: {exc.message}", rule="card",
                         name=framework) from None
    program = gold.get("gold_program")
    if not isinstance(program, list) or not program:
        raise ScoreError(f"item {item_id}: gold program has no gates", rule="grp", name=item_id)
    kill_numbers = {g.number for g in card.kill_gates}
    gates = []
    for entry in program:
        if not isinstance(entry, Mapping) or not isinstance(entry.get("gate"), int):
            raise ScoreError(f"item {item_id}: a gold gate has no number", rule="grp", name=item_id)
        verdict = str(entry.get("verdict") or "N/A")
        label = entry.get("kill_criterion") if entry.get("kill_triggered") else None
        elements = [str(e) for e in entry.get("required_elements") or ()] if verdict != "N/A" else []
        gates.append(PlannedGate(int(entry["gate"]), str(entry.get("name") or ""), verdict, elements,
                                 str(label) if label and int(entry["gate"]) in kill_numbers else None))
    return Plan(
        card_id=card.id,
        card_name=card.name,
        investor=card.investor,
        item_id=item_id,
        gates=gates,
        final_verdict=str(gold.get("investment_verdict") or ""),
        pass_outcome=card.outcomes.get(_PASS, "INVEST"),
        fail_outcome=card.outcomes.get(_FAIL, "DECLINE"),
        card_gate_names=tuple(g.name for g in card.gates),
        sources=tuple((s.document, s.year, s.locator) for s in card.sources if isinstance(s.year, int)),
        citation=_choose_citation(card, scenario_year),
        voice=_own_phrases(card),
        scenario_year=scenario_year,
    )


# --------------------------------------------------------------------------- rendering


def _human(element: str) -> str:
    return element.replace("_", " ").strip()


def _list(words: Sequence[str]) -> str:
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


def _short_name(investor: str) -> str:
    """"Buffett" for "Warren Buffett", "NBIM" for "NBIM (Norges Bank Investment Management)"."""
    head = investor.split(" (")[0].strip()
    return head.split()[-1] if " " in head else head


def render_plan(plan: Plan, *, heading: bool = False) -> str:
    """The answer text of one plan (numbered gates, then the final verdict).

    ``heading`` adds a ``## investor: card`` line, for answers covering
    several cards (L8 items).
    """
    lines: list[str] = []
    if heading:
        lines.append(f"## {plan.investor}: {plan.card_name}")
    card = _card(plan.card_id)
    name = "framework" if _mentions(plan.card_name, _gate_vocabulary(card)) else plan.card_name
    lines.append(f"{plan.investor}'s {name}, applied to the scenario.")
    if plan.voice:
        lines.append(f"{plan.investor} stresses {_list(plan.voice)}.")
    if plan.citation is not None:
        document, year, locator = plan.citation
        cite = f'Source: "{document}" ({year})'
        if locator:
            cite += f", {locator}"
        lines.append(cite + ".")
    lines.append("")
    for g in plan.gates:
        if g.verdict == "N/A":
            lines.append(f"Gate {g.number}: {g.name} \u2014 N/A, not reached.")
            continue
        text = f"Gate {g.number}: {g.name} \u2014 {g.verdict}."
        if g.elements:
            text += " Considered: " + "; ".join(_human(e) for e in g.elements) + "."
        if g.kill_label:
            text += f" Kill criterion: {_human(g.kill_label)}."
        lines.append(text)
    lines.append("")
    lines.append(f"Final verdict: {plan.final_verdict}")
    if plan.voice:
        lines.append(f"In {_short_name(plan.investor)}'s terms, the case rests on {_list(plan.voice)}.")
    return "\n".join(lines) + "\n"


# --------------------------------------------------------------------------- items -> responses


def parse_corruption_spec(spec: str) -> list[str]:
    """``"drop_gate+wrong_year"`` -> ``["drop_gate", "wrong_year"]``, each name checked.

    Raises
    ------
    ScoreError
        An empty spec, or an unknown corruption (the message lists the
        registered ones; ``suggestion`` is the closest).

    Examples
    --------
    >>> parse_corruption_spec("drop_gate+wrong_year")
    ['drop_gate', 'wrong_year']
    """
    names = [p.strip() for p in spec.split("+") if p.strip()]
    if not names:
        raise ScoreError(f"empty corruption spec {spec!r}; the registered corruptions: {', '.join(corruption_names())}",
                         rule="corruption", name=spec)
    for n in names:
        _entry(n)
    return names


def _entry(name: str) -> Entry[CorruptionFn]:
    """The registry entry of ``name``; an unknown name's error lists every registered one."""
    try:
        return corruptions.get(name)
    except ScoreError as exc:
        raise ScoreError(f"unknown corruption {name!r}; the registered corruptions: {', '.join(corruption_names())}",
                         name=name, rule=exc.rule, suggestion=exc.suggestion) from None


def synthetic_responses(
    items: Iterable[Mapping[str, Any]],
    *,
    corruptions: list[str] | None = None,
    seed: int = 0,
    model: str = "synthetic",
    condition: str = "A",
) -> list[dict[str, Any]]:
    """Response records rendered from each item's gold program, one per item and corruption.

    Parameters
    ----------
    items : iterable of item dicts
        Items as ``ipb perturb`` writes them (``id``, and ``grp`` or
        ``golds``), or any dict with ``id`` and ``grp``.
    corruptions : list of str, optional
        Corruption specs; a spec is one registered name or several joined by
        ``+`` (applied in order to one response). None: every registered
        corruption, ``none`` included, one response each.
    seed : int
        Seed of every random choice (with the item id and spec).
    model, condition : str
        Written into every record (``condition`` A by default: a valid
        paper §7.2 condition for ``ipb respond``'s record schema; it means
        nothing for a synthetic answer).

    Returns
    -------
    list of dict
        ``{"item_id", "model", "condition", "response", "corruptions"}`` in item
        order, then spec order. ``corruptions`` lists, for each corruption of
        the spec, ``{"name", "applied", "details"}`` (``details`` says which
        gate, element, year or investor it touched, or ``why`` it did not
        apply); for an L8 item, the details of each card are under its id.

    Raises
    ------
    ScoreError
        An unknown corruption name, or an item without an id or gold program.

    Examples
    --------
    >>> from ipb.engine.registry import compiled_card
    >>> from ipb.engine.execute import execute
    >>> from decimal import Decimal
    >>> cc = compiled_card("buffett_acquisition_checklist")
    >>> facts = {"business_model": "subscription_software", "gross_margin": Decimal("0.9"),
    ...          "revenue_retention": Decimal("0.95"), "revenue_growth": Decimal("0.25"), "net_income": Decimal(0),
    ...          "arr": Decimal("5e9"), "ev_to_arr": Decimal(10), "macro_regime": "expansion"}
    >>> item = {"id": "P-011", "grp": execute(cc, facts).to_grp()}
    >>> [r["corruptions"][0]["details"] for r in synthetic_responses([item], corruptions=["flip_final"])]
    [{'from': 'DECLINE', 'to': 'INVEST'}]
    """
    specs = list(corruptions) if corruptions is not None else corruption_names()
    parsed_specs = [(spec, parse_corruption_spec(spec)) for spec in specs]
    out: list[dict[str, Any]] = []
    for item in items:
        item_id = item.get("id")
        if not isinstance(item_id, str) or not item_id:
            raise ScoreError("an item has no string 'id'", rule="item")
        golds = golds_of(item)
        year = scenario_year_of(item)
        for spec, names in parsed_specs:
            rng = random.Random(f"{seed}:{item_id}:{spec}")
            plans = [plan_for_gold(item_id, g, scenario_year=year) for g in golds]
            records = []
            for name in names:
                fn = get_corruption(name)
                per_card: dict[str, Any] = {}
                applied_any = False
                for plan in plans:
                    try:
                        per_card[plan.card_id] = fn(plan, rng)
                        applied_any = True
                    except NotApplicable as why:
                        per_card[plan.card_id] = {"why": str(why)}
                details = per_card[plans[0].card_id] if len(plans) == 1 else per_card
                records.append({"name": name, "applied": applied_any, "details": details})
            text = "\n".join(render_plan(p, heading=len(plans) > 1) for p in plans)
            out.append({
                "item_id": item_id,
                "model": model,
                "condition": condition,
                "response": text,
                "corruptions": records,
            })
    return out


def get_corruption(name: str) -> CorruptionFn:
    """The registered corruption ``name`` (a typed lookup; an unknown name raises ScoreError listing the registered ones)."""
    return _entry(name).fn


def bundled_items(cards: Sequence[str] | None = None) -> list[dict[str, Any]]:
    """L7 items with executed gold programs for every bundled scenario (``frameworks/scenarios/<card>/*.yaml``).

    Each item is ``{"id": "<card>/<scenario file stem>", "layer": "L7",
    "card", "grp", "investment_verdict", "verdict_trigger", "question",
    "scenario": {"id", "layer", "card", "as_of"?}}``, the shape ``ipb
    perturb`` writes for L7 (without its manifest): a ready-made item set for
    calibration runs and benchmarks. On the command line, ``ipb respond
    --synthetic --bundled --out OUT.jsonl`` answers them and writes them to
    ``OUT.items.jsonl``.

    Parameters
    ----------
    cards : sequence of str, optional
        Card ids; default every card with a scenarios folder.

    Raises
    ------
    ipb.errors.LoadError
        A card or scenario does not load.
    """
    from importlib import resources

    from ipb.engine.execute import execute
    from ipb.engine.registry import compiled_card
    from ipb.engine.scenario import load_scenario

    root = resources.files("ipb.frameworks").joinpath("scenarios")
    folders = sorted((p for p in root.iterdir() if p.is_dir()), key=lambda p: p.name)
    wanted = None if cards is None else set(cards)
    out: list[dict[str, Any]] = []
    for folder in folders:
        if wanted is not None and folder.name not in wanted:
            continue
        compiled = compiled_card(folder.name)
        for path in sorted((p for p in folder.iterdir() if p.name.endswith(".yaml")), key=lambda p: p.name):
            scenario = load_scenario(str(path), compiled.card)
            ident = f"{folder.name}/{path.name[:-5]}"
            grp = execute(compiled, scenario.facts, scenario_id=ident, layer="L7").to_grp()
            scen: dict[str, Any] = {"id": ident, "layer": "L7", "card": compiled.card.id}
            if scenario.as_of is not None:
                scen["as_of"] = scenario.as_of.isoformat()
            out.append({
                "id": ident,
                "layer": "L7",
                "card": compiled.card.id,
                "question": scenario.question or scenario.title or ident,
                "scenario": scen,
                "grp": grp,
                "investment_verdict": grp["investment_verdict"],
                "verdict_trigger": grp["verdict_trigger"],
            })
    return out
