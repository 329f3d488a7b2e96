"""Decision records and the outcome scores of InvestLogicBench (seed 001).

A decision record is one Event -> Reasoning -> Decision -> Outcome chain of
an investor (``grammar/decision_record.schema.json``): its ``date`` and
catalyst ``events``, the ``finLogic`` chain ``"[Event] -> [Thesis] -> Action:
[Action]"``, the executable ``investDecision``, the horizon
(``investPeriod``/``endDate``), the market-validated ``outcome`` and the
post-mortem ``finLogicReview``. A records file is a YAML or JSON document
(``agentProfile`` plus ``decisions``) or JSON Lines with one decision a line.

The Task 2 scores are exactly those of the seed:

* profit, against the expert's total profit :math:`P_h` with neutral midpoint
  :math:`P_m = \\max(0, P_h)`, the first matching branch deciding::

      S_profit = 5.0                          if P_a >= P_h
               = 5.0 (P_a - P_m) / (P_h - P_m)  if P_m <= P_a < P_h
               = 5.0 P_a / P_m                 if 0 <= P_a < P_m
               = 0.0                          if P_a < 0

* win rate: ``S_win = 5.0`` if ``W_a >= W_h``, else ``5.0 W_a / W_h``;
* ``S_outcome = 0.7 S_profit + 0.3 S_win``;
* ``S_reasoning = (S_EC + S_LP) / 2`` (event coherence, logical plausibility,
  each 0-5);
* ``S_overall = S_reasoning + S_outcome`` (0-10).

With :math:`P_m = \\max(0, P_h)` the second branch can never hold: when
``P_h > 0`` it is the empty range ``[P_h, P_h)``; when ``P_h <= 0`` it is
``[0, P_h)``, empty too. It is kept, in the seed's order, so the code reads
as the formula does; a property test pins that it is unreachable. The
score is continuous in ``P_a`` and, when ``P_h <= 0``, any ``P_a >= P_h``
(even a loss no worse than the expert's) scores 5.0.

>>> score_outcomes(p_agent="16.7%", w_agent="72%", p_expert="3.53%", w_expert="60%",
...                event_coherence=Decimal("2.8"), logical_plausibility=Decimal("4.1")).s_overall
Decimal('8.45')
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Any, Iterable, Sequence

from ipb.engine._json import Item, load_items
from ipb.errors import IpbError, ParseError, ScoreError

__all__ = [
    "FinLogic",
    "parse_finlogic",
    "Event",
    "Decision",
    "AgentProfile",
    "DecisionRecords",
    "load_records",
    "parse_return",
    "ProfitScore",
    "profit_score",
    "win_score",
    "outcome_score",
    "reasoning_score",
    "overall_score",
    "OutcomeScores",
    "score_outcomes",
    "RecordSummary",
    "summarise",
    "PROFIT_BRANCHES",
]

Number = Decimal | int | float | str

FIVE = Decimal(5)
ZERO = Decimal(0)


# =========================================================================== finLogic


@dataclass(frozen=True)
class FinLogic:
    """A parsed ``finLogic`` chain: one event, one or more thesis steps, one action.

    ``spans`` are 0-based ``(start, end)`` offsets of each part in ``text``
    (event, each thesis step, the action text after ``Action:``).
    """

    text: str
    event: str
    thesis: tuple[str, ...]
    action: str
    spans: tuple[tuple[int, int], ...] = field(repr=False, compare=False)

    def to_dict(self) -> dict[str, Any]:
        return {"event": self.event, "thesis": list(self.thesis), "action": self.action}


_ACTION = re.compile(r"action\s*:", re.IGNORECASE)
_FORM = "'[Event] -> [Thesis] -> Action: [Action]'"


def _finlogic_error(message: str, offset: int) -> ParseError:
    return ParseError(message, line=1, column=offset + 1, offset=offset, rule="finlogic")


def parse_finlogic(text: str) -> FinLogic:
    """Parse a finLogic string ``"[Event] -> [Thesis] -> Action: [Action]"``.

    Steps are separated by ``->`` or ``→`` (mixing them is allowed); an arrow
    inside square brackets does not separate. Each step may be wrapped in
    one pair of brackets. The first step is the event, the last must be
    labelled ``Action:`` (any case), and every step in between is part of the
    thesis (at least one).

    Raises
    ------
    ParseError
        Rule ``finlogic``, with the 0-based ``offset`` and the 1-based
        ``column`` of the problem in ``text``: an empty chain, too few steps,
        an empty step, an unbalanced bracket, text after a closing bracket, a
        missing or misplaced ``Action:`` label, an empty action.

    Examples
    --------
    >>> parse_finlogic("[CPI cools to 2.7%] -> [rate cuts repriced] → Action: [Long QQQ]").action
    'Long QQQ'
    >>> parse_finlogic("Fed cut -> Action: Long SPY")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ipb.errors.ParseError: <input>:1:9: parse error: finLogic needs an event, at least one thesis step and an action ...
    """
    if not text.strip():
        raise _finlogic_error(f"finLogic is empty; write {_FORM}", 0)
    raw: list[tuple[int, int]] = []
    arrows: list[int] = []
    depth, opened, start, i = 0, 0, 0, 0
    while i < len(text):
        ch = text[i]
        if ch == "[":
            if depth == 0:
                opened = i
            depth += 1
        elif ch == "]":
            if depth == 0:
                raise _finlogic_error("']' closes no '['", i)
            depth -= 1
        elif depth == 0 and (text.startswith("->", i) or ch == "→"):
            raw.append((start, i))
            arrows.append(i)
            i += 2 if ch == "-" else 1
            start = i
            continue
        i += 1
    if depth:
        raise _finlogic_error("'[' is never closed with ']'", opened)
    raw.append((start, len(text)))
    if len(raw) < 3:
        where = arrows[0] if arrows else len(text)
        found = "no arrow" if not arrows else "only two steps"
        raise _finlogic_error(
            f"finLogic needs an event, at least one thesis step and an action ({_FORM}); found {found}", where
        )
    parts: list[tuple[str, int, int]] = []
    last = len(raw) - 1
    for index, (s, e) in enumerate(raw):
        s, e = _trim(text, s, e)
        if s == e:
            raise _finlogic_error("empty step between arrows" if 0 < index < last else
                                  ("empty event before the first arrow" if index == 0 else "empty action step after the last arrow"), s)
        label = _ACTION.match(text, s)
        if index < last and label is not None:
            raise _finlogic_error("'Action:' labels the last step only; the steps before it are the event and the thesis", s)
        if index == last:
            if label is None:
                raise _finlogic_error(f"the last step must be the action, written 'Action: ...' ({_FORM})", s)
            s, e = _trim(text, label.end(), e)
            if s == e:
                raise _finlogic_error("'Action:' is followed by no action", label.end())
        s, e = _unwrap(text, s, e)
        if s == e:
            raise _finlogic_error("empty brackets: write the step inside '[...]'", s)
        parts.append((text[s:e], s, e))
    return FinLogic(
        text=text,
        event=parts[0][0],
        thesis=tuple(p[0] for p in parts[1:-1]),
        action=parts[-1][0],
        spans=tuple((p[1], p[2]) for p in parts),
    )


def _trim(text: str, s: int, e: int) -> tuple[int, int]:
    while s < e and text[s].isspace():
        s += 1
    while e > s and text[e - 1].isspace():
        e -= 1
    return s, e


def _unwrap(text: str, s: int, e: int) -> tuple[int, int]:
    """The inside of ``[...]`` when the step is one bracketed group, else the step."""
    if text[s] != "[":
        return s, e
    depth = 0
    for i in range(s, e):
        if text[i] == "[":
            depth += 1
        elif text[i] == "]":
            depth -= 1
            if depth == 0:
                if i != e - 1:
                    raise _finlogic_error("text after ']': a bracketed step must end at its closing bracket", i + 1)
                return _trim(text, s + 1, i)
    return s, e  # pragma: no cover - brackets were balanced by the caller


# =========================================================================== numbers


_PERCENT = re.compile(r"\s*([-+]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+))\s*%\s*")


def parse_return(value: Number, what: str = "value") -> Decimal:
    """A return or rate as a fraction: ``"+5.2%"`` -> 0.052, ``0.052`` -> 0.052.

    Raises
    ------
    ScoreError
        Rule ``number``: not a number or percentage, not finite, or a bare
        number beyond ±10 (almost surely a percentage missing its ``%``).

    >>> parse_return("+5.2%"), parse_return("-15.67%"), parse_return(0.25)
    (Decimal('0.052'), Decimal('-0.1567'), Decimal('0.25'))
    """
    if isinstance(value, bool):
        raise ScoreError(f"{what} must be a number, not {value!r}", rule="number")
    if isinstance(value, str):
        match = _PERCENT.fullmatch(value)
        if match is None:
            try:
                number = Decimal(value.strip())
            except InvalidOperation:
                raise ScoreError(f"{what} {value!r} is not a number or a percentage such as '+5.2%'", rule="number") from None
        else:
            return Decimal(match.group(1)) / 100
    elif isinstance(value, float):
        number = Decimal(repr(value))
    elif isinstance(value, (int, Decimal)):
        number = Decimal(value)
    else:
        raise ScoreError(f"{what} must be a number, not {value!r}", rule="number")
    if not number.is_finite():
        raise ScoreError(f"{what} must be finite, not {value!r}", rule="number")
    if abs(number) > 10:
        raise ScoreError(f"{what} {value!r} is a fraction of 1 (0.052 means 5.2%); write '{value}%' for a percentage",
                         rule="number")
    return number


def _rate(value: Number, what: str) -> Decimal:
    number = parse_return(value, what)
    if not 0 <= number <= 1:
        raise ScoreError(f"{what} must lie in [0, 1] (0% to 100%), not {value!r}", rule="range")
    return number


def _judge(value: Number, what: str) -> Decimal:
    if isinstance(value, bool) or not isinstance(value, (int, float, Decimal, str)):
        raise ScoreError(f"{what} must be a number on the 0-5 scale, not {value!r}", rule="number")
    try:
        number = Decimal(repr(value)) if isinstance(value, float) else Decimal(value)
    except InvalidOperation:
        raise ScoreError(f"{what} must be a number on the 0-5 scale, not {value!r}", rule="number") from None
    if not (number.is_finite() and 0 <= number <= 5):
        raise ScoreError(f"{what} must lie on the 5-point scale [0, 5], not {value!r}", rule="range")
    return number


# =========================================================================== the scores

#: The branches of ``S_profit``, in the order the seed lists them.
PROFIT_BRANCHES = ("at_or_above_expert", "between_midpoint_and_expert", "below_midpoint", "loss")


@dataclass(frozen=True)
class ProfitScore:
    """``S_profit`` with the branch that decided it and the midpoint used."""

    value: Decimal
    branch: str
    midpoint: Decimal


def profit_score(p_agent: Number, p_expert: Number) -> ProfitScore:
    """The conditional profit score ``S_profit`` (seed 001, Task 2), 0-5.

    Parameters
    ----------
    p_agent, p_expert:
        Total profit of the agent (:math:`P_a`) and of the human expert
        (:math:`P_h`), as fractions (0.167) or percentages (``"16.7%"``).

    Returns
    -------
    ProfitScore
        ``value`` by the first matching branch of the seed's definition
        (see the module notes), ``branch`` one of :data:`PROFIT_BRANCHES`,
        ``midpoint`` :math:`P_m = \\max(0, P_h)`.

    Examples
    --------
    >>> profit_score("2%", "4%")
    ProfitScore(value=Decimal('2.5'), branch='below_midpoint', midpoint=Decimal('0.04'))
    >>> profit_score("-1%", "-3%").value, profit_score("-4%", "-3%").value
    (Decimal('5.0'), Decimal('0.0'))
    """
    pa = parse_return(p_agent, "agent profit")
    ph = parse_return(p_expert, "expert profit")
    pm = max(ZERO, ph)
    if pa >= ph:
        return ProfitScore(Decimal("5.0"), PROFIT_BRANCHES[0], pm)
    if pm <= pa < ph:  # unreachable with P_m = max(0, P_h); kept as the seed writes it
        return ProfitScore(FIVE * (pa - pm) / (ph - pm), PROFIT_BRANCHES[1], pm)
    if 0 <= pa < pm:
        return ProfitScore(FIVE * pa / pm, PROFIT_BRANCHES[2], pm)
    return ProfitScore(Decimal("0.0"), PROFIT_BRANCHES[3], pm)


def win_score(w_agent: Number, w_expert: Number) -> Decimal:
    """The win-rate score ``S_win``: 5.0 if ``W_a >= W_h``, else ``5.0 W_a / W_h``.

    Win rates are fractions in [0, 1] or percentages. ``W_h = 0`` gives 5.0
    (every ``W_a`` reaches it), so the quotient never divides by zero.

    >>> win_score("40%", "50%"), win_score("51%", "50%")
    (Decimal('4'), Decimal('5.0'))
    """
    wa = _rate(w_agent, "agent win rate")
    wh = _rate(w_expert, "expert win rate")
    if wa >= wh:
        return Decimal("5.0")
    return FIVE * wa / wh


def outcome_score(s_profit: Decimal, s_win: Decimal) -> Decimal:
    """``S_outcome = 0.7 S_profit + 0.3 S_win`` (0-5).

    >>> outcome_score(Decimal(5), Decimal(4))
    Decimal('4.7')
    """
    return Decimal("0.7") * s_profit + Decimal("0.3") * s_win


def reasoning_score(event_coherence: Number, logical_plausibility: Number) -> Decimal:
    """``S_reasoning = (S_EC + S_LP) / 2``; each judge score on the 5-point scale [0, 5].

    >>> reasoning_score(Decimal("2.8"), Decimal("4.1"))
    Decimal('3.45')
    """
    return (_judge(event_coherence, "event coherence") + _judge(logical_plausibility, "logical plausibility")) / 2


def overall_score(s_reasoning: Decimal, s_outcome: Decimal) -> Decimal:
    """``S_overall = S_reasoning + S_outcome`` (0-10).

    >>> overall_score(Decimal("3.45"), Decimal("5.0"))
    Decimal('8.45')
    """
    return s_reasoning + s_outcome


@dataclass(frozen=True)
class OutcomeScores:
    """Every Task 2 score of one agent against one expert.

    ``s_reasoning`` and ``s_overall`` are None when no judge scores were
    given (``unscored`` then says why); the outcome scores never need them.
    """

    p_agent: Decimal
    w_agent: Decimal
    p_expert: Decimal
    w_expert: Decimal
    profit: ProfitScore
    s_win: Decimal
    s_outcome: Decimal
    event_coherence: Decimal | None = None
    logical_plausibility: Decimal | None = None
    s_reasoning: Decimal | None = None
    s_overall: Decimal | None = None
    unscored: str | None = None

    @property
    def s_profit(self) -> Decimal:
        return self.profit.value

    def to_dict(self) -> dict[str, Any]:
        return {
            "inputs": {
                "p_agent": self.p_agent, "w_agent": self.w_agent, "p_expert": self.p_expert, "w_expert": self.w_expert,
                "p_midpoint": self.profit.midpoint,
                "event_coherence": self.event_coherence, "logical_plausibility": self.logical_plausibility,
            },
            "s_profit": self.profit.value,
            "profit_branch": self.profit.branch,
            "s_win": self.s_win,
            "s_outcome": self.s_outcome,
            "s_reasoning": self.s_reasoning,
            "s_overall": self.s_overall,
            "unscored": self.unscored,
        }


def score_outcomes(
    *,
    p_agent: Number,
    w_agent: Number,
    p_expert: Number,
    w_expert: Number,
    event_coherence: Number | None = None,
    logical_plausibility: Number | None = None,
) -> OutcomeScores:
    """Every Task 2 score from the four outcome numbers and the two judge scores.

    Raises
    ------
    ScoreError
        A number that is malformed or out of range (win rates in [0, 1],
        judge scores in [0, 5]); only one of the two judge scores given.
    """
    profit = profit_score(p_agent, p_expert)
    s_win = win_score(w_agent, w_expert)
    s_outcome = outcome_score(profit.value, s_win)
    ec = lp = s_reasoning = s_overall = None
    unscored = None
    if (event_coherence is None) != (logical_plausibility is None):
        raise ScoreError("S_reasoning needs both event coherence and logical plausibility, or neither", rule="judge")
    if event_coherence is not None and logical_plausibility is not None:
        ec = _judge(event_coherence, "event coherence")
        lp = _judge(logical_plausibility, "logical plausibility")
        s_reasoning = reasoning_score(ec, lp)
        s_overall = overall_score(s_reasoning, s_outcome)
    else:
        unscored = "no judge scores (event coherence, logical plausibility): S_reasoning and S_overall are not computed"
    return OutcomeScores(
        parse_return(p_agent), _rate(w_agent, "agent win rate"), parse_return(p_expert), _rate(w_expert, "expert win rate"),
        profit, s_win, s_outcome, ec, lp, s_reasoning, s_overall, unscored,
    )


# =========================================================================== records


@dataclass(frozen=True)
class Event:
    """A catalyst event of a decision; ``date`` when the record binds it to a day."""

    text: str
    date: dt.date | None = None
    source: str | None = None


@dataclass(frozen=True)
class AgentProfile:
    """The investor: primary style, capital scale, security types, free metadata."""

    id: str
    style: str
    name: str | None = None
    capital_scale: str | None = None
    security_types: tuple[str, ...] = ()
    metadata: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Decision:
    """One Event -> Reasoning -> Decision -> Outcome chain.

    ``outcome`` is the market-validated return as a fraction (None while
    pending); ``record`` is the 1-based record number in its file.
    """

    record: int
    date: dt.date
    events: tuple[Event, ...]
    finlogic: FinLogic
    invest_decision: str
    id: str | None = None
    agent_id: str | None = None
    invest_period: str | None = None
    end_date: dt.date | None = None
    outcome: Decimal | None = None
    review: str | None = None
    event_coherence: Decimal | None = None
    logical_plausibility: Decimal | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "record": self.record,
            "id": self.id,
            "agentId": self.agent_id,
            "date": self.date.isoformat(),
            "events": [
                {"text": e.text, "date": e.date.isoformat() if e.date else None, "source": e.source} for e in self.events
            ],
            "finLogic": self.finlogic.to_dict(),
            "investDecision": self.invest_decision,
            "investPeriod": self.invest_period,
            "endDate": self.end_date.isoformat() if self.end_date else None,
            "outcome": self.outcome,
            "finLogicReview": self.review,
            "judgeScores": {"eventCoherence": self.event_coherence, "logicalPlausibility": self.logical_plausibility},
        }


@dataclass
class DecisionRecords:
    """A loaded records file: the profile (YAML/JSON documents only) and the decisions."""

    file: str
    decisions: list[Decision]
    profile: AgentProfile | None = None


def load_records(path: str | Path, *, text: str | None = None) -> DecisionRecords:
    """Read, validate and parse a decision-records file.

    Parameters
    ----------
    path:
        ``.jsonl`` (one decision a line), ``.json`` or YAML (the document
        with ``version``, optional ``agentProfile`` and ``decisions``).
    text:
        The file's text, if already read.

    Raises
    ------
    LoadError or ErrorGroup
        Every problem in the file: syntax, schema (unknown fields with a
        "did you mean"), impossible dates, an event dated after its decision,
        an ``endDate`` before the decision, a malformed ``outcome``, a
        finLogic that does not parse (pointing at the character in the
        string), duplicate decision ids. Each error names the record number;
        positions are file line and column.
    """
    loaded = load_items(
        path, schema="decision_record.schema.json", item_def="decision", list_key="decisions",
        what="a decision", text=text,
    )
    header, items = loaded.header, loaded.items
    errors: list[IpbError] = []
    decisions: list[Decision] = []
    seen: dict[str, int] = {}
    for item in items:
        decision = _decision(item, errors)
        if decision is None:
            continue
        if decision.id is not None:
            if decision.id in seen:
                errors.append(item.error(f"duplicate decision id {decision.id!r} (record {seen[decision.id]} has it too)",
                                         ("id",), rule="duplicate-id", name=decision.id))
            seen.setdefault(decision.id, decision.record)
        decisions.append(decision)
    loaded.raise_errors(errors)
    profile = None
    if "agentProfile" in header:
        p = header["agentProfile"]
        profile = AgentProfile(p["id"], p["style"], p.get("name"), p.get("capitalScale"),
                               tuple(p.get("securityTypes", ())), dict(p.get("metadata", {})))
    return DecisionRecords(str(path), decisions, profile)


def _date(item: Item, path: tuple[str | int, ...], value: str, errors: list[IpbError]) -> dt.date | None:
    try:
        return dt.date.fromisoformat(value)
    except ValueError:
        errors.append(item.error(f"{value!r} is not a calendar date", path, rule="date"))
        return None


def _decision(item: Item, errors: list[IpbError]) -> Decision | None:
    d = item.data
    before = len(errors)
    date = _date(item, ("date",), d["date"], errors)
    events: list[Event] = []
    for i, raw in enumerate(d["events"]):
        if isinstance(raw, str):
            events.append(Event(raw))
            continue
        when = _date(item, ("events", i, "date"), raw["date"], errors) if "date" in raw else None
        if when is not None and date is not None and when > date:
            errors.append(item.error(
                f"event dated {when.isoformat()} is after the decision's date {date.isoformat()}: "
                "a decision can only rest on events known by then", ("events", i, "date"), rule="look-ahead"))
        events.append(Event(raw["text"], when, raw.get("source")))
    end = _date(item, ("endDate",), d["endDate"], errors) if "endDate" in d else None
    if end is not None and date is not None and end < date:
        errors.append(item.error(f"endDate {end.isoformat()} is before the decision's date {date.isoformat()}",
                                 ("endDate",), rule="horizon"))
    outcome = None
    raw_outcome = d.get("outcome")
    if isinstance(raw_outcome, str) and not raw_outcome.strip().endswith("%"):
        errors.append(item.error(f"outcome {raw_outcome!r} is text without '%': write a percentage such as '+5.2%', "
                                 "or the fraction 0.052 as a number", ("outcome",), rule="outcome"))
    elif raw_outcome is not None:
        try:
            outcome = parse_return(raw_outcome, "outcome")
        except ScoreError as exc:
            errors.append(item.error(exc.message, ("outcome",), rule="outcome"))
    finlogic = None
    try:
        finlogic = parse_finlogic(d["finLogic"])
    except ParseError as exc:
        errors.append(item.error_in_string(exc.message, ("finLogic",), exc.offset or 0, rule="finlogic"))
    judge = d.get("judgeScores", {})
    if len(errors) > before or date is None or finlogic is None:
        return None
    return Decision(
        record=item.record, date=date, events=tuple(events), finlogic=finlogic,
        invest_decision=d["investDecision"], id=d.get("id"), agent_id=d.get("agentId"),
        invest_period=d.get("investPeriod"), end_date=end, outcome=outcome, review=d.get("finLogicReview"),
        event_coherence=_opt_decimal(judge.get("eventCoherence")),
        logical_plausibility=_opt_decimal(judge.get("logicalPlausibility")),
    )


def _opt_decimal(value: Any) -> Decimal | None:
    return None if value is None else Decimal(value)


# =========================================================================== summaries


@dataclass(frozen=True)
class RecordSummary:
    """The outcome numbers of a set of decisions.

    ``total_profit`` and ``win_rate`` count only decisions with an outcome
    (``scored``); ``pending`` have none yet. ``event_coherence`` and
    ``logical_plausibility`` are means over the decisions that carry judge
    scores (None when none do).
    """

    decisions: int
    scored: int
    pending: int
    wins: int
    total_profit: Decimal | None
    win_rate: Decimal | None
    event_coherence: Decimal | None
    logical_plausibility: Decimal | None
    profit_rule: str

    def to_dict(self) -> dict[str, Any]:
        return {
            "decisions": self.decisions, "scored": self.scored, "pending": self.pending, "wins": self.wins,
            "total_profit": self.total_profit, "win_rate": self.win_rate,
            "event_coherence": self.event_coherence, "logical_plausibility": self.logical_plausibility,
            "profit_rule": self.profit_rule,
        }


def summarise(decisions: Sequence[Decision], *, profit: str = "sum") -> RecordSummary:
    """Total profit, win rate and mean judge scores of ``decisions``.

    Parameters
    ----------
    profit:
        ``"sum"``: total profit is the sum of the returns (equal stake per
        decision, not reinvested); ``"compound"``: the product of
        ``1 + r`` less one (all capital rolled from decision to decision).
        The seed does not say which; ``sum`` is the default.

    A win is a decision whose outcome is strictly positive.

    Raises
    ------
    ScoreError
        An unknown ``profit`` rule.

    >>> ds = [_demo(Decimal("0.10")), _demo(Decimal("-0.05")), _demo(None)]
    >>> s = summarise(ds)
    >>> s.total_profit, s.win_rate, s.pending
    (Decimal('0.05'), Decimal('0.5'), 1)
    >>> summarise(ds, profit="compound").total_profit
    Decimal('0.0450')
    """
    if profit not in ("sum", "compound"):
        raise ScoreError(f"unknown profit rule {profit!r}; use 'sum' or 'compound'", rule="profit-rule", name=profit)
    outcomes = [d.outcome for d in decisions if d.outcome is not None]
    wins = sum(1 for r in outcomes if r > 0)
    total: Decimal | None = None
    if outcomes:
        if profit == "sum":
            total = sum(outcomes, ZERO)
        else:
            growth = Decimal(1)
            for r in outcomes:
                growth *= 1 + r
            total = growth - 1
    ec = [d.event_coherence for d in decisions if d.event_coherence is not None]
    lp = [d.logical_plausibility for d in decisions if d.logical_plausibility is not None]
    return RecordSummary(
        decisions=len(decisions),
        scored=len(outcomes),
        pending=len(decisions) - len(outcomes),
        wins=wins,
        total_profit=total,
        win_rate=Decimal(wins) / len(outcomes) if outcomes else None,
        event_coherence=_mean(ec),
        logical_plausibility=_mean(lp),
        profit_rule=profit,
    )


def _mean(values: Iterable[Decimal]) -> Decimal | None:
    items = list(values)
    return sum(items, ZERO) / len(items) if items else None


def _demo(outcome: Decimal | None) -> Decision:
    """A minimal decision with ``outcome``, for the examples."""
    chain = parse_finlogic("[e] -> [t] -> Action: [a]")
    return Decision(1, dt.date(2025, 1, 2), (Event("e"),), chain, "Long X", outcome=outcome)
