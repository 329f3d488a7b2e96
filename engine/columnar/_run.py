"""Execute a card over whole columns: the five gate logics as array operations.

The verdict rules are those of :mod:`ipb.engine.execute` (paper Table 5,
§7.3), applied to every row at once: each gate's raw verdict is computed for all
rows, then the topology decides which gates each row reaches (a linear chain
stops at the first REJECT, or the first PROCEED of a disjunction; a regime card
runs the branch its classifier selects) and what the final verdict and trigger
are. Rows that take a re-entry loop run again, as columns, from the loop's
target (``iteration`` 1, 2, ...). Rows the columns cannot decide exactly (see
:mod:`._expr`) are re-run by the scalar :func:`ipb.engine.execute.execute` on
that row alone; :attr:`ColumnarResult.fallback` counts them.
"""

from __future__ import annotations

import datetime as _dt
import math
from dataclasses import dataclass, field
import math
from decimal import Decimal
from fractions import Fraction
from typing import Any, Callable, Iterator, Mapping, Sequence

import numpy as np

from ipb.engine.card import Card, Gate
from ipb.engine import execute as _scalar
from ipb.engine.execute import execute
from ipb.engine.graph import CompiledCard
from ipb.engine.columnar._expr import Col, ColumnExpr, Frame, Vocabulary, compile_columns
from ipb.engine.columnar._inputs import input_columns

__all__ = ["ColumnarCard", "ColumnarResult", "columnar", "execute_columns", "VERDICT_WORDS"]

NA, PROCEED, REJECT, INCONCLUSIVE = np.int8(0), np.int8(1), np.int8(2), np.int8(3)
#: Verdict code -> the word :class:`ipb.engine.logic.Verdict` uses.
VERDICT_WORDS = ("N/A", "PROCEED", "REJECT", "INCONCLUSIVE")
_CODE = {w: i for i, w in enumerate(VERDICT_WORDS)}
_INC_OUTCOME = "INCONCLUSIVE"
_EPOCH = _dt.date(1970, 1, 1)
#: Rows per batch: small enough for the working arrays to stay in the CPU cache.
CHUNK = 32768


@dataclass
class _GatePlan:
    gate: Gate
    computes: list[tuple[str, ColumnExpr]]
    proceed: ColumnExpr | None
    reject: ColumnExpr | None
    classify: list[tuple[int, ColumnExpr | None]]
    reentry: tuple[ColumnExpr, int] | None


@dataclass
class ColumnarResult:
    """Verdict columns of one card over ``n`` rows.

    Attributes
    ----------
    verdicts:
        int8, shape ``(gates, n)``: 0 N/A, 1 PROCEED, 2 REJECT, 3 INCONCLUSIVE
        (:data:`VERDICT_WORDS`).
    outcome, trigger:
        int32 codes, shape ``(n,)``, into ``outcomes`` and ``triggers`` (the
        final verdict in the card's vocabulary or INCONCLUSIVE, and what
        decided it, as :class:`ipb.engine.execute.Trace` names them).
    regime:
        int32 codes into ``regimes`` (-1: no regime selected); None for a card
        without a classifier.
    computed:
        value name -> (float64 values, bool valid); a value is valid only where
        its gate ran and it was known.
    fallback:
        Rows re-decided by the scalar engine (exactness doubts, re-entry loops).
    """

    card: Card
    n: int
    verdicts: np.ndarray
    outcome: np.ndarray
    outcomes: list[str]
    trigger: np.ndarray
    triggers: list[str]
    regime: np.ndarray | None
    regimes: list[str]
    computed: dict[str, tuple[np.ndarray, np.ndarray]] = field(default_factory=dict)
    fallback: int = 0

    def row(self, i: int) -> tuple[str, str, tuple[str, ...]]:
        """(final verdict, trigger, gate verdicts) of row ``i``, as words."""
        return (
            self.outcomes[self.outcome[i]],
            self.triggers[self.trigger[i]],
            tuple(VERDICT_WORDS[v] for v in self.verdicts[:, i]),
        )

    def rows(self) -> Iterator[tuple[str, str, tuple[str, ...]]]:
        for i in range(self.n):
            yield self.row(i)


class _Codes:
    def __init__(self) -> None:
        self.vocab = Vocabulary()

    def __call__(self, word: str) -> int:
        return self.vocab.code(word)


class _FinalVerdicts:
    """How the gates' verdict columns become the final verdict and trigger, one method per gate logic
    (conjunction and its decisive-gate guard, disjunction, N-of-M threshold, regime); mixed into
    :class:`ColumnarCard`, whose plan (``self.card``, ``self.plans``...) they read."""

    # Set by ColumnarCard.__init__ (declared here for the type checker).
    card: Any
    compiled: Any
    decisive: Any
    index: Any
    vocab: Any
    _chain: Any

    def _cleared(self, out: "_Outcomes", rows: np.ndarray, ok_word: str, regime: str | None = None) -> None:
        """Outcome of conjunction rows with no REJECT (``execute._cleared``)."""
        rest = rows.copy()
        for i in self.decisive:
            hit = rest & (out.verdicts[i] == INCONCLUSIVE)
            trig = f"gate_{i + 1}_inconclusive"
            out.set(hit, _INC_OUTCOME, trig if regime is None else f"regime_{regime}_{trig}")
            rest &= ~hit
        any_proceed = (out.verdicts == PROCEED).any(axis=0)
        out.set(rest & ~any_proceed, _INC_OUTCOME,
                "no_gate_decided" if regime is None else f"regime_{regime}_no_gate_decided")
        out.set(rest & any_proceed, ok_word, "all_gates_cleared" if regime is None else f"regime_{regime}")

    def _guard(self, out: "_Outcomes", rows: np.ndarray, ok_word: str) -> None:
        """Rows with the pass verdict stay INCONCLUSIVE while a decisive gate is (``execute._guard``)."""
        if not self.decisive:
            return
        rest = rows & (out.outcome == out.outcomes(ok_word))
        for i in self.decisive:
            hit = rest & (out.verdicts[i] == INCONCLUSIVE)
            out.set(hit, _INC_OUTCOME, f"gate_{i + 1}_inconclusive")
            rest &= ~hit

    def _none_fired(self, out: "_Outcomes", rows: np.ndarray, ok_word: str) -> None:
        """No trigger fired: the pass verdict when every trigger was checked (``execute._disjunction_none_fired``)."""
        all_checked = (out.verdicts == PROCEED).all(axis=0)
        out.set(rows & all_checked, ok_word, "no_trigger_fired")
        out.set(rows & ~all_checked, _INC_OUTCOME, "undetermined")

    def _threshold(self, out: "_Outcomes", raw: Sequence[np.ndarray], ok_word: str, bad_word: str) -> None:
        threshold = self.card.threshold
        assert threshold is not None
        counted = PROCEED if threshold.count == "PROCEED" else REJECT
        weights = [Fraction(g.weight) for g in self.card.gates]
        scale = math.lcm(*[w.denominator for w in weights], Fraction(threshold.min_weight).denominator)
        iw = [int(w * scale) for w in weights]
        need = int(Fraction(threshold.min_weight) * scale)  # an integer: scale holds its denominator
        n = out.n
        # Exact integer sums; Python ints (object arrays) when the scaled weights could pass int64 (issue 16).
        wide = (sum(iw) + need).bit_length() > 62
        dtype = object if wide else np.int64
        hit = np.zeros(n, dtype=dtype)
        open_ = np.zeros(n, dtype=dtype)
        count = np.zeros(n, dtype=np.int64)
        for v, w in zip(raw, iw):
            hit += (v == counted).astype(dtype) * w
            open_ += (v == INCONCLUSIVE).astype(dtype) * w
            count += v == counted
        m = len(raw)
        met_word, unmet_word = (ok_word, bad_word) if counted == PROCEED else (bad_word, ok_word)
        met = hit >= need
        unmet = ~met & (hit + open_ < need)
        undecided = ~met & ~unmet
        for k in range(m + 1):
            at = count == k
            out.set(at & met, met_word, f"threshold_met_{k}_of_{m}")
            reason = "weight" if k >= threshold.n else "threshold"  # (as execute._threshold: a veto by weight)
            out.set(at & unmet, unmet_word, f"{reason}_not_met_{k}_of_{m}")
            out.set(at & undecided, _INC_OUTCOME, f"threshold_undecided_{k}_of_{m}")

    def _regime(self, out: "_Outcomes", raw: Sequence[np.ndarray], regime: np.ndarray | None, bad_word: str) -> None:
        compiled = self.compiled
        classifier = compiled.classifier
        assert classifier is not None and regime is not None
        n = out.n
        prefix = [g.number - 1 for g in compiled.prefix]
        stopper, _ = self._chain(raw, prefix, np.ones(n, dtype=bool), out.verdicts, REJECT)
        stopped = stopper >= 0
        out.by_gate(stopped, stopper, bad_word, "gate_{}_reject")
        ci = classifier.number - 1
        reach = ~stopped
        out.verdicts[ci] = np.where(reach, raw[ci], NA)
        rejected = reach & (raw[ci] == REJECT)
        out.set(rejected, bad_word, f"gate_{ci + 1}_reject")
        undetermined = reach & ~rejected & (regime < 0)
        out.set(undetermined, _INC_OUTCOME, "regime_undetermined")
        on = reach & ~rejected & (regime >= 0)
        assert out.regime is not None
        np.copyto(out.regime, np.where(on, regime, -1))
        for name, branch in classifier.branches.items():
            rows = on & (regime == self.vocab.codes[name])
            if not rows.any():
                continue
            order = [self.index[gid] for gid in branch.gates]
            bstop, _ = self._chain(raw, order, rows, out.verdicts, REJECT)
            bstopped = rows & (bstop >= 0)
            out.by_gate(bstopped, bstop, branch.fail_outcome, f"regime_{name}_gate_{{}}_reject")
            self._cleared(out, rows & ~bstopped, branch.pass_outcome, regime=name)


class ColumnarCard(_FinalVerdicts):
    """A compiled card prepared for column execution (build once, run on many tables)."""

    def __init__(self, compiled: CompiledCard) -> None:
        self.compiled = compiled
        card = self.card = compiled.card
        self.vocab = Vocabulary()
        for spec in card.inputs.values():
            for value in spec.values or ():
                self.vocab.code(value)
        symbols = card.symbols
        constants = {name: value for name, (value, _) in card.constants.items()}

        def comp(expr: Any) -> ColumnExpr | None:
            return None if expr is None else compile_columns(expr.source, symbols, constants, self.vocab)

        self.gates: list[_GatePlan] = []
        for g in card.gates:
            classify = [(self.vocab.code(regime), comp(when)) for regime, when in g.classify]
            reentry = None
            if g.reentry is not None:
                reentry = (comp(g.reentry.condition), g.reentry.max_iterations)
            self.gates.append(_GatePlan(g, [(n, comp(e)) for n, e in g.compute.items()], comp(g.proceed),
                                        comp(g.reject), classify, reentry))  # type: ignore[arg-type]
        self.index = {g.id: g.number - 1 for g in card.gates}
        self.decisive = [g.number - 1 for g in card.gates if g.decisive]
        self.computed_names = [n for g in card.gates for n in g.compute]
        # The scalar engine's rule for values a gate cannot compute (issue 15):
        # only the values a later gate reads hold a gate back.
        self.used: frozenset[str] = _scalar._used_values(card)

    # ------------------------------------------------------------------ gates

    def _gate(self, i: int, frame: Frame) -> tuple[np.ndarray, np.ndarray | None]:
        """Raw verdict of gate ``i`` on every row (int8), and regime codes for a classifier."""
        plan = self.gates[i]
        n = frame.n
        known: Any = True
        for name, expr in plan.computes:
            c = expr(frame)
            frame.err(c)
            frame.env[name] = c
            if name in self.used:
                known = known & np.broadcast_to(c.ok, (n,))
        P = plan.proceed(frame) if plan.proceed is not None else None
        R = plan.reject(frame) if plan.reject is not None else None
        if P is not None and R is not None:
            v = np.where(R.v, REJECT, np.where(R.false & P.v, PROCEED, INCONCLUSIVE))
        elif R is not None:
            v = np.where(R.v, REJECT, np.where(R.false, PROCEED, INCONCLUSIVE))
        elif P is not None:
            v = np.where(P.v, PROCEED, np.where(P.false, REJECT, INCONCLUSIVE))
        elif plan.computes:
            v = np.where(known, PROCEED, INCONCLUSIVE)
        else:
            v = np.full(n, PROCEED)
        v = np.broadcast_to(v, (n,)).astype(np.int8, copy=False)
        if (P is not None or R is not None) and not np.all(known):
            # a gate never PROCEEDs on a value the card relies on but cannot compute
            v = np.where((v == PROCEED) & ~known, INCONCLUSIVE, v)
        if not plan.classify:
            return v, None
        regime = np.full(n, -1, dtype=np.int32)
        open_ = v != REJECT
        verdict = v.copy()
        for code, when in plan.classify:
            if when is None:
                regime[open_] = code
                open_ = np.zeros(n, dtype=bool)
                break
            w = when(frame)
            hit = open_ & np.broadcast_to(w.v, (n,))
            regime[hit] = code
            unknown = open_ & ~np.broadcast_to(w.ok, (n,))
            open_ = open_ & np.broadcast_to(w.false, (n,))
            verdict[unknown] = INCONCLUSIVE
        verdict[open_] = INCONCLUSIVE
        frame.env[plan.gate.id] = Col("cat", regime, regime >= 0)
        return verdict, regime

    # ------------------------------------------------------------------ run

    def run(self, columns: Mapping[str, Any], n: int | None = None, *, exact: bool = True,
            chunk: int = CHUNK, progress: Callable[[int], None] | None = None) -> ColumnarResult:
        """Execute the card on every row of ``columns``.

        Parameters
        ----------
        columns:
            Input name -> column, shape ``(n,)``: numbers as float or int
            arrays (NaN unknown; ratios in [0, 1], money in USD), bools,
            categories as string arrays (None unknown) or :class:`Encoded`,
            dates as ``datetime64[D]`` (NaT unknown). A missing input is
            unknown on every row; names the card does not read are ignored.
        n:
            Row count; taken from the columns when omitted.
        exact:
            Re-decide doubtful rows with the scalar engine (default). False
            keeps the float verdicts (faster, not guaranteed at thresholds).
        chunk:
            Rows per batch (batches small enough to stay in the CPU cache
            run faster; the result does not depend on it).
        progress:
            Called with the number of rows finished after each batch.

        Returns
        -------
        ColumnarResult

        Raises
        ------
        BadColumn
            A column that does not fit its input (length, type, undeclared
            category value), naming the input and the first bad row.
        """
        if n is None:
            used = [name for name in self.card.inputs if name in columns]
            n = len(columns[used[0]]) if used else 0
        outcomes, triggers = _Codes(), _Codes()
        whole, n = input_columns(self.card, columns, n, self.vocab)
        m = len(self.card.gates)
        has_regime = any(g.classify for g in self.card.gates)
        result = ColumnarResult(
            self.card, n, np.zeros((m, n), dtype=np.int8), np.full(n, -1, dtype=np.int32), outcomes.vocab.words,
            np.full(n, -1, dtype=np.int32), triggers.vocab.words,
            np.full(n, -1, dtype=np.int32) if has_regime else None, self.vocab.words,
            {name: (np.full(n, np.nan), np.zeros(n, dtype=bool)) for name in self.computed_names})
        for start in range(0, max(n, 1), max(chunk, 1)):
            stop = min(n, start + chunk)
            env = {name: _slice_col(c, start, stop) for name, c in whole.items()}
            part = ColumnarResult(
                self.card, stop - start, result.verdicts[:, start:stop], result.outcome[start:stop], result.outcomes,
                result.trigger[start:stop], result.triggers,
                None if result.regime is None else result.regime[start:stop], result.regimes,
                {name: (v[start:stop], ok[start:stop]) for name, (v, ok) in result.computed.items()})
            with np.errstate(all="ignore"):
                self._run(env, stop - start, exact, outcomes, triggers, part)
            result.fallback += part.fallback
            if progress is not None:
                progress(stop - start)
        result.outcomes, result.triggers, result.regimes = list(outcomes.vocab.words), list(triggers.vocab.words), \
            list(self.vocab.words)
        return result

    def _run(self, env: dict[str, Col], n: int, exact: bool, outcomes: "_Codes", triggers: "_Codes",
             part: ColumnarResult) -> None:
        """Fill ``part`` (views into the whole result) with the verdicts of one batch."""
        card = self.card
        m = len(card.gates)
        env["iteration"] = Col("num", 0.0)
        frame = Frame(n, env)
        raw: list[np.ndarray] = []
        doubts: list[np.ndarray] = []
        regime = None
        loops: list[tuple[int, Col, int]] = []
        for i in range(m):
            frame.doubt = np.zeros(n, dtype=bool)
            v, r = self._gate(i, frame)
            if r is not None:
                regime = r
            plan = self.gates[i]
            if plan.reentry is not None and card.topology_type == "linear_sequential":
                loops.append((i, plan.reentry[0](frame), plan.reentry[1]))
            raw.append(v)
            doubts.append(frame.doubt)

        out = _Outcomes(part, outcomes, triggers)
        topology, family = card.topology_type, self.compiled.family
        ok_word, bad_word = card.outcomes["pass"], card.outcomes["fail"]
        fallback = np.zeros(n, dtype=bool)
        if topology == "linear_sequential":
            stopper, alive_after = self._chain(raw, range(m), np.ones(n, dtype=bool), out.verdicts, REJECT, bool(loops))
            looped: list[tuple[np.ndarray, dict[str, Col]]] = []
            live = [(i, cond, bound) for i, cond, bound in loops if bound > 0]
            if len(live) == 1:
                # one re-entry loop: the rows that take it run again, columnar, from the loop's target
                i, cond, bound = live[0]
                back = np.flatnonzero(alive_after[i] & np.broadcast_to(cond.v, (n,)))
                if len(back):
                    if exact:  # whether a row looped was decided by gates up to i and the loop condition
                        fallback[back] |= np.any([d[back] for d in doubts[: i + 1]], axis=0)
                    self._loop(env, back, back, 1, i, bound, out.verdicts, stopper, fallback, exact, looped)
            else:
                for i, cond, bound in live:  # several loops share one counter: the scalar engine runs those rows
                    fallback |= alive_after[i] & np.broadcast_to(cond.v, (n,))
            stopped = stopper >= 0
            if family == "disjunction":
                # a trigger card: REJECT = the trigger fired (paper §7.3)
                out.by_gate(stopped, stopper, bad_word, "gate_{}_trigger")
                self._none_fired(out, ~stopped, ok_word)
            else:
                out.by_gate(stopped, stopper, bad_word, "gate_{}_reject")
                self._cleared(out, ~stopped, ok_word)
        elif topology == "parallel_threshold":
            out.verdicts[:] = raw
            if family in ("conjunction", "disjunction"):
                first = np.full(n, -1, dtype=np.int32)
                for i in reversed(range(m)):
                    first[raw[i] == REJECT] = i
                hit = first >= 0
                if family == "conjunction":
                    out.by_gate(hit, first, bad_word, "gate_{}_reject")
                    self._cleared(out, ~hit, ok_word)
                else:
                    out.by_gate(hit, first, bad_word, "gate_{}_trigger")
                    self._none_fired(out, ~hit, ok_word)
            else:
                self._threshold(out, raw, ok_word, bad_word)
                self._guard(out, np.ones(n, dtype=bool), ok_word)
        else:
            self._regime(out, raw, regime, bad_word)

        if exact:
            for i in range(m):
                fallback |= doubts[i] & (out.verdicts[i] != NA)
        self._computed(env, out.verdicts, n, part.computed)
        if topology == "linear_sequential":
            for rows_, sub in looped:  # values from each row's last pass through the loop
                self._computed(sub, out.verdicts[:, rows_], len(rows_), part.computed, rows_)
        rows = np.flatnonzero(fallback)
        if len(rows):
            self._scalar_rows(part, env, rows, outcomes, triggers)

    def _chain(self, raw: Sequence[np.ndarray], order: Sequence[int], rows: np.ndarray, verdicts: np.ndarray,
               stop: Any, keep: bool = False) -> tuple[np.ndarray, dict[int, np.ndarray]]:
        """Run gates ``order`` on ``rows`` until each row meets ``stop``; returns (stopper, alive after each gate)."""
        n = len(rows)
        stopper = np.full(n, -1, dtype=np.int32)
        alive = rows.copy()
        after: dict[int, np.ndarray] = {}
        for i in order:
            # rows of this chain are N/A (0) in verdicts[i] until now
            verdicts[i] += raw[i] * alive
            s = raw[i] == stop
            s &= alive
            if s.any():
                stopper[s] = i
                alive &= ~s
            if keep:
                after[i] = alive.copy()
        return stopper, after

    def _computed(self, env: Mapping[str, Col], verdicts: np.ndarray, n: int,
                  into: dict[str, tuple[np.ndarray, np.ndarray]], rows: np.ndarray | None = None) -> None:
        """Computed values where their gate ran and they are known (NaN elsewhere), written ``into`` views.

        With ``rows``, ``env`` and ``verdicts`` hold only those rows (a re-entry pass) and only they are written.
        """
        for plan in self.gates:
            reached = verdicts[plan.gate.number - 1] != NA
            for name, _ in plan.computes:
                c = env[name]
                values, ok = into[name]
                known = reached & np.broadcast_to(c.ok, (n,))
                if rows is None:
                    ok[:] = known
                    np.copyto(values, np.broadcast_to(c.v, (n,)), where=known)
                else:
                    ok[rows] = known
                    values[rows] = np.where(known, np.broadcast_to(c.v, (n,)), np.nan)

    def _loop(self, src: Mapping[str, Col], local: np.ndarray, rows: np.ndarray, k: int, i: int, bound: int,
              verdicts: np.ndarray, stopper: np.ndarray, fallback: np.ndarray, exact: bool,
              looped: list[tuple[np.ndarray, dict[str, Col]]]) -> None:
        """Pass ``k`` of gate ``i``'s re-entry loop for ``rows`` (``local``: their positions in ``src``).

        As :func:`ipb.engine.execute._chain`: the gates from the loop's target
        on run again with ``iteration = k`` and the values of the last pass;
        their verdicts replace the earlier ones; rows whose loop condition
        still holds (and ``k < bound``) go round again.
        """
        plan = self.gates[i]
        assert plan.reentry is not None and plan.gate.reentry is not None
        to = self.index[plan.gate.reentry.to]
        m = len(self.gates)
        nn = len(rows)
        sub = {name: _take_col(c, local) for name, c in src.items()}
        sub["iteration"] = Col("num", float(k))
        frame = Frame(nn, sub)
        raw: list[np.ndarray] = [np.zeros(nn, dtype=np.int8)] * m
        doubts: list[np.ndarray] = [np.zeros(nn, dtype=bool)] * m
        cond: Col | None = None
        for g in range(to, m):
            frame.doubt = np.zeros(nn, dtype=bool)
            raw[g] = self._gate(g, frame)[0]
            if g == i:
                cond = plan.reentry[0](frame)
            doubts[g] = frame.doubt
        assert cond is not None
        mine = verdicts[:, rows]
        mine[to:] = NA
        s_stop, s_after = self._chain(raw, range(to, m), np.ones(nn, dtype=bool), mine, REJECT, True)
        verdicts[:, rows] = mine
        stopper[rows] = s_stop
        if exact:
            fallback[rows] |= np.any([doubts[g] & (mine[g] != NA) for g in range(to, m)], axis=0)
        looped.append((rows, sub))
        again = s_after[i] & np.broadcast_to(cond.v, (nn,))
        if k < bound and again.any():
            nxt = np.flatnonzero(again)
            self._loop(sub, nxt, rows[nxt], k + 1, i, bound, verdicts, stopper, fallback, exact, looped)

    def _scalar_rows(self, result: ColumnarResult, env: Mapping[str, Col], rows: np.ndarray, outcomes: _Codes,
                     triggers: _Codes) -> None:
        """Re-run ``rows`` with the scalar engine and overwrite their verdicts (exact at thresholds)."""
        regimes = self.vocab.codes
        computes = [(plan.gate.number - 1, [name for name, _ in plan.computes]) for plan in self.gates if plan.computes]
        for r, facts in zip(rows.tolist(), self.facts(env, rows)):
            trace = execute(self.compiled, facts)
            verdicts = trace.verdicts()
            result.verdicts[:, r] = [_CODE[v] for v in verdicts]
            result.outcome[r] = outcomes(trace.outcome)
            result.trigger[r] = triggers(trace.trigger)
            if result.regime is not None:
                result.regime[r] = -1 if trace.regime is None else regimes[trace.regime]
            for i, names in computes:
                reached = verdicts[i] != "N/A"
                for name in names:
                    value = trace.env.get(name) if reached else None
                    vals, ok = result.computed[name]
                    ok[r] = value is not None
                    vals[r] = np.nan if value is None else float(value)
        result.fallback = len(rows)

    def facts(self, env: Mapping[str, Col], rows: np.ndarray) -> list[dict[str, Any]]:
        """The scalar engine's facts for ``rows`` (a float cell is the decimal of its shortest repr)."""
        out: list[dict[str, Any]] = [{} for _ in range(len(rows))]
        words = self.vocab.words
        for name in self.card.inputs:
            c = env.get(name)
            if c is None:
                continue
            oks = np.broadcast_to(c.ok, np.shape(c.ok) or (1,))
            vs = np.broadcast_to(c.v, np.shape(c.v) or (1,))
            ok = (oks[rows] if len(oks) > 1 else np.repeat(oks, len(rows))).tolist()
            if not any(ok):
                continue
            values = (vs[rows] if len(vs) > 1 else np.repeat(vs, len(rows))).tolist()
            exact = [None] * len(values) if c.raw is None else c.raw[rows].tolist()
            for facts, known, v, x in zip(out, ok, values, exact):
                if not known:
                    continue
                if c.kind == "num":
                    if x is not None:  # the cell's exact value, where its float is not it
                        facts[name] = Decimal(x)
                    else:
                        facts[name] = Decimal(v) if isinstance(v, int) else Decimal(repr(v))
                elif c.kind == "bool":
                    facts[name] = bool(v)
                elif c.kind == "cat":
                    facts[name] = words[v]
                elif c.kind == "date":
                    facts[name] = _EPOCH + _dt.timedelta(days=v)
        return out


class _Outcomes:
    """Outcome and trigger codes being filled in, plus the verdict matrix (views into the result)."""

    def __init__(self, part: ColumnarResult, outcomes: _Codes, triggers: _Codes) -> None:
        self.n = part.n
        self.verdicts = part.verdicts
        self.outcome = part.outcome
        self.trigger = part.trigger
        self.regime = part.regime
        self.outcomes = outcomes
        self.triggers = triggers

    def set(self, rows: np.ndarray, outcome: str, trigger: str) -> None:
        if rows.any():
            self.outcome[rows] = self.outcomes(outcome)
            self.trigger[rows] = self.triggers(trigger)

    def by_gate(self, rows: np.ndarray, gate: np.ndarray, outcome: str, template: str) -> None:
        """``rows`` get ``outcome`` and the trigger ``template`` filled with their 1-based ``gate``."""
        if not rows.any():
            return
        self.outcome[rows] = self.outcomes(outcome)
        present = np.bincount(gate[rows], minlength=len(self.verdicts)) > 0
        table = np.array([self.triggers(template.format(i + 1)) if hit else -1 for i, hit in enumerate(present)],
                         dtype=np.int32)
        np.copyto(self.trigger, table[gate], where=rows)


def _take_col(c: Col, idx: np.ndarray) -> Col:
    def take(x: Any) -> Any:
        return x[idx] if np.ndim(x) else x

    return Col(c.kind, take(c.v), take(c.ok), None if c.err is None else take(c.err), c.exact)


def _slice_col(c: Col, start: int, stop: int) -> Col:
    def cut(x: Any) -> Any:
        return x[start:stop] if np.ndim(x) else x

    err = c.err if c.err is None or np.ndim(c.err) == 0 else c.err[start:stop]
    ok = cut(c.ok)
    if np.ndim(ok) and ok.all():
        ok = np.True_  # known on every row of this batch: masks can be skipped
    return Col(c.kind, cut(c.v), ok, err, c.exact, None if c.raw is None else c.raw[start:stop])


def columnar(compiled: CompiledCard) -> ColumnarCard:
    """The :class:`ColumnarCard` of ``compiled``, built once and cached on it."""
    cached = getattr(compiled, "_columnar", None)
    if cached is None:
        cached = ColumnarCard(compiled)
        compiled._columnar = cached  # type: ignore[attr-defined]
    return cached


def execute_columns(compiled: CompiledCard, columns: Mapping[str, Any], n: int | None = None, *,
                    exact: bool = True, chunk: int = CHUNK,
                    progress: Callable[[int], None] | None = None) -> ColumnarResult:
    """Execute ``compiled`` on every row of ``columns`` (see :meth:`ColumnarCard.run`).

    Examples
    --------
    >>> import numpy as np
    >>> from ipb.engine.card import load_card_text
    >>> from ipb.engine.graph import compile_card
    >>> card = compile_card(load_card_text('''
    ... id: demo
    ... version: 1
    ... investor: Benjamin Graham
    ... name: Net-net
    ... topology_type: linear_sequential
    ... gate_logic: conjunction
    ... topology_rationale: one test
    ... vintage: {start: 1934, end: 1976}
    ... sources: [{tier: 1, document: Security Analysis, year: 1934}]
    ... inputs:
    ...   price: {type: money}
    ...   ncav: {type: money}
    ... gates:
    ...   - id: cheap
    ...     name: Below two thirds of NCAV
    ...     proceed: price <= 2/3 * ncav
    ...     required_elements: [price]
    ...     source: {tier: 1, document: Security Analysis, year: 1934}
    ... '''))
    >>> r = execute_columns(card, {"price": np.array([200.0, 201.0, np.nan]), "ncav": np.array([300.0, 300.0, 300.0])})
    >>> [r.row(i)[0] for i in range(3)], r.fallback
    (['INVEST', 'DECLINE', 'INCONCLUSIVE'], 1)
    """
    return columnar(compiled).run(columns, n, exact=exact, chunk=chunk, progress=progress)
