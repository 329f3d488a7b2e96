"""A card's gate logic run on gate verdicts someone stated, not on facts.

A model's answer states a verdict for some of a card's gates and a final
verdict. :func:`outcome_of_verdicts` gives the final verdict the card's own
gate logic (the engine's execution, paper §7.3 and Table 5: a linear chain
stopping at its first REJECT, a parallel conjunction, an N-of-M weighted
threshold, a regime branch) gives on those verdicts, so that scoring can tell
an answer whose stated final contradicts its own trace (s63 new user E2, s64
new user F4; ``ipb.scoring.metrics.elements.final_contradicts_trace``).

A gate the logic reaches but the answer did not state is tried at each of
PROCEED, REJECT and INCONCLUSIVE, and a regime gate at each of its regimes
(an answer's regime is not read from it); the outcome is the one every such
completion gives, or None where two completions give different ones: only
the gates that can change the outcome need to be stated. A re-entry loop is
not run: with the gates' verdicts fixed, a second pass repeats the first.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Mapping

from ipb.engine.execute import INCONCLUSIVE_OUTCOME, _run
from ipb.engine.logic import Verdict

if TYPE_CHECKING:
    from ipb.engine.graph import CompiledCard

__all__ = ["outcome_of_verdicts", "card_outcomes", "MAX_COMPLETIONS"]

#: Completions tried before giving up (None): 3^7, every verdict of seven unstated gates.
MAX_COMPLETIONS = 3**7

_TRIED = (Verdict.PROCEED, Verdict.REJECT, Verdict.INCONCLUSIVE)


class _Undecided(Exception):
    """Two completions of the stated verdicts gave different outcomes, or too many completions."""


def card_outcomes(compiled: CompiledCard) -> tuple[str, ...]:
    """Every final verdict ``compiled`` can give: its pass and fail outcomes, each regime branch's, INCONCLUSIVE.

    >>> from ipb.engine.registry import compiled_card
    >>> card_outcomes(compiled_card("graham_net_net_screen"))
    ('INVEST', 'DECLINE', 'INCONCLUSIVE')
    """
    card = compiled.card
    names = [card.outcomes["pass"], card.outcomes["fail"]]
    if compiled.classifier is not None:
        for branch in compiled.classifier.branches.values():
            names += [branch.pass_outcome, branch.fail_outcome]
    return tuple(dict.fromkeys([*names, INCONCLUSIVE_OUTCOME]))


def outcome_of_verdicts(compiled: CompiledCard, stated: Mapping[int, Verdict | str]) -> str | None:
    """The final verdict the card's gate logic gives on the gate verdicts ``stated``, or None when it is not fixed.

    Parameters
    ----------
    compiled:
        The card (:func:`ipb.engine.graph.compile_card`).
    stated:
        Gate number (1-based) -> PROCEED, REJECT or INCONCLUSIVE. Other gates,
        and other values (N/A), count as not stated.

    Returns
    -------
    str or None
        The outcome (``INVEST``, ``DECLINE``, a branch's own, ``INCONCLUSIVE``)
        that every completion of ``stated`` gives: each gate the logic reaches
        unstated tried at PROCEED, REJECT and INCONCLUSIVE, a regime gate at
        each regime; None when two completions differ, or past
        :data:`MAX_COMPLETIONS` of them.

    References
    ----------
    Paper §7.3 (verdicts, a chain stops at its first REJECT), Table 5 (gate
    logics), :mod:`ipb.engine.execute`.

    Examples
    --------
    >>> from ipb.engine.registry import compiled_card
    >>> net_net = compiled_card("graham_net_net_screen")   # linear, two gates
    >>> outcome_of_verdicts(net_net, {1: "PROCEED", 2: "PROCEED"}), outcome_of_verdicts(net_net, {2: "REJECT"})
    ('INVEST', 'DECLINE')
    >>> outcome_of_verdicts(net_net, {1: "PROCEED"}) is None   # gate 2 decides it and is not stated
    True
    """
    card = compiled.card
    fixed: dict[int, Verdict] = {}
    for number, value in stated.items():
        verdict = value if isinstance(value, Verdict) else Verdict.__members__.get(str(value))
        if verdict in _TRIED and isinstance(number, int) and 1 <= number <= len(card.gates):
            fixed[number - 1] = verdict
    classifier = compiled.classifier
    ci = classifier.number - 1 if classifier is not None else None
    regimes = tuple(classifier.branches) if classifier is not None else ()
    path: list[int] = []  # the choice taken at each open point of the current completion
    sizes: list[int] = []  # how many choices each open point has
    depth = 0

    def choose(options: tuple[Any, ...]) -> Any:
        nonlocal depth
        if depth == len(path):
            path.append(0)
            sizes.append(len(options))
        choice = options[path[depth]]
        depth += 1
        return choice

    def decider(i: int) -> Callable[[dict[str, Any]], Verdict]:
        if i in fixed:
            verdict = fixed[i]
            return lambda env: verdict
        return lambda env: choose(_TRIED)  # type: ignore[no-any-return]

    def classify(env: dict[str, Any]) -> tuple[Verdict, str | None]:
        assert ci is not None
        own = fixed.get(ci)
        options: list[tuple[Verdict, str | None]] = []
        if own in (None, Verdict.REJECT):
            options.append((Verdict.REJECT, None))
        if own in (None, Verdict.INCONCLUSIVE):
            options += [(Verdict.INCONCLUSIVE, None)] + [(Verdict.INCONCLUSIVE, r) for r in regimes]
        if own in (None, Verdict.PROCEED):
            options += [(Verdict.PROCEED, r) for r in regimes]
        return choose(tuple(options))  # type: ignore[no-any-return]

    given = (tuple(decider(i) for i in range(len(card.gates))), classify if ci is not None else None)
    seen: str | None = None
    try:
        for _ in range(MAX_COMPLETIONS):
            depth = 0
            outcome = _run(compiled, {}, given).outcome
            if seen is not None and outcome != seen:
                raise _Undecided
            seen = outcome
            del path[depth:], sizes[depth:]  # the open points this completion reached
            while path and path[-1] + 1 >= sizes[-1]:
                path.pop()
                sizes.pop()
            if not path:
                return seen
            path[-1] += 1
    except _Undecided:
        return None
    return None
