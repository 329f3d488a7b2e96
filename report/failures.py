"""One model's refusals by kind, unreadable answers and unknowns: the leaderboard's "Refusals, unreadable, unknowns"
column (s51report). Read from a scored run's summary.json (its model group and its ``unscored`` list) and records.

A figure users rank by must not reward failing: this column says, beside each model's rank, how many of its answers
were refusals (each in every mean at 0), unreadable (parse failures, likewise 0), scored on a stated final verdict
alone, or KCCS-unknown (left out of the KCCS mean); docs/report.md.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, Mapping


@dataclass(frozen=True)
class FailureCounts:
    """One model's refusals by kind, unreadable answers and unknowns (the terminal's line under the board gives the
    same refusal kinds).

    ``n`` is the model's usable responses (``n - n_invalid``), the share's denominator for the answers;
    ``refusals`` maps each refusal reason code the scorer gave (``refusal``, ``empty_response``, ``off_topic``,
    ``no_commitment``, ``echo``; ``unrecorded`` for refusals of a summary whose ``unscored`` list names no model) to its count;
    ``unreadable`` is the parse failures; ``verdict_only`` the scored answers with no gate read but a stated final
    verdict (``n_trace_unread``); ``kccs_unknown`` the scored answers whose KCCS is unknown; ``gates_unknown`` of
    ``gates_read`` the gates of its scored answers read INCONCLUSIVE (an "unknown" verdict); ``min_confidence`` the
    run's ``--min-confidence`` (None: not given) and ``review`` and ``review_records`` the readings of its scored
    answers below it and the answers holding one (``n_review``, ``n_review_records``): routed to review, still scored
    as read and in every mean (docs/scoring.md "How review-routed readings are counted"; s63 new user E1);
    ``contradicts`` its scored answers whose stated final verdict is not the one the card's gate logic gives on
    their own stated gate verdicts (``n_final_contradicts_trace``, s63 new user E2, s64 new user F4).
    """

    n: int
    refusals: Mapping[str, int]
    unreadable: int
    verdict_only: int = 0
    kccs_unknown: int = 0
    gates_unknown: int = 0
    gates_read: int = 0
    min_confidence: float | None = None
    review: int = 0
    review_records: int = 0
    contradicts: int = 0

    @property
    def n_refusals(self) -> int:
        return sum(self.refusals.values())


def int_or_none(value: Any) -> int | None:
    """A summary count as an int; None for anything else (a bool, a float, a string, a missing value)."""
    return int(value) if isinstance(value, int) and not isinstance(value, bool) else None


def failure_counts(model: str, group: Mapping[str, Any], unscored: Iterable[Any],
                   records: Iterable[Mapping[str, Any]], min_confidence: float | None = None) -> FailureCounts:
    """``model``'s counts from its summary group (``n``, ``n_invalid``, ``n_refusals``, ``n_parse_failures``,
    ``n_trace_unread``, ``n_kccs_unknown``, ``n_review``, ``n_review_records``), the summary's ``unscored`` entries
    (which name their model since s50user) and the scored records (their parsed gates read INCONCLUSIVE);
    ``min_confidence`` is the run's threshold (the summary's ``counts.review.min_confidence``), None when not given."""
    from ipb.scoring.outcome import REFUSAL_REASONS

    kinds: dict[str, int] = {}
    for u in unscored:
        if isinstance(u, Mapping) and str(u.get("model")) == model and u.get("reason_code") in REFUSAL_REASONS:
            kinds[str(u["reason_code"])] = kinds.get(str(u["reason_code"]), 0) + 1
    n_refusals = int_or_none(group.get("n_refusals")) or 0
    if n_refusals > sum(kinds.values()):  # an older summary: its unscored entries carry no model
        kinds["unrecorded"] = n_refusals - sum(kinds.values())
    read = unknown = 0
    for r in records:
        if str(r.get("model")) != model or r.get("status") != "scored":
            continue
        for t in r.get("targets") or ():
            parsed = t.get("parsed") if isinstance(t, Mapping) else None
            for g in (parsed.get("gates") or ()) if isinstance(parsed, Mapping) else ():
                if isinstance(g, Mapping):
                    read += 1
                    unknown += g.get("verdict") == "INCONCLUSIVE"
    return FailureCounts(
        n=(int_or_none(group.get("n")) or 0) - (int_or_none(group.get("n_invalid")) or 0),
        refusals=dict(sorted(kinds.items())),
        unreadable=int_or_none(group.get("n_parse_failures")) or 0,
        verdict_only=int_or_none(group.get("n_trace_unread")) or 0,
        kccs_unknown=int_or_none(group.get("n_kccs_unknown")) or 0,
        gates_unknown=unknown,
        gates_read=read,
        min_confidence=min_confidence,
        review=int_or_none(group.get("n_review")) or 0,
        review_records=int_or_none(group.get("n_review_records")) or 0,
        contradicts=int_or_none(group.get("n_final_contradicts_trace")) or 0,
    )
