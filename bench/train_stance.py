"""Fit the parser's learned stance reader (``scoring/parse/_stance.py``) on the corpus's tuned split.

Run from the repository root::

    .venv/bin/python bench/train_stance.py [--write] [--cache FILE] [--corpus DIR]

Examples come from the tuned split only (the heldout split is never read here):

gate head
    every case is parsed (embedder on, the stance reader off); each parsed gate whose label is PROCEED, REJECT,
    INCONCLUSIVE or ``-`` (NONE) gives its section's text (``GateTrace.span``) with that label.
final head
    each case on a card deciding two outcomes gives its close (:func:`closing_text`) labelled PASS (the card's pass
    outcome), FAIL (its fail outcome) or NONE (``final_verdict: null``).

The text's words are hashed into features (:func:`ipb.scoring.parse._stance.features`) and a multinomial logistic
regression (scikit-learn, used only here) is fitted per head. Printed first is the cross-validation grouped by batch (train on
every other batch, test on one; the cases before the n24 batch form one group "early"): accuracy of every reading,
and coverage and accuracy of the readings the reader would make (top class not NONE, probability >= threshold) on
the items it is applied to (a gate or final the rules left unread), per half: (a) answers to ipb's own prompts,
(b) wild analyses. ``--write`` then writes the gate head's weights fitted on all examples to
``scoring/parse/stance.json``, rounded to 5 decimals: the same corpus gives the same bytes. The final head is measured
only: it reads too few closes right to ship (docs/scoring.md, "Learned stance").
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
from parse_accuracy import DEFAULT_CORPUS, load_corpus  # noqa: E402

WEIGHTS = ROOT / "scoring" / "parse" / "stance.json"
GATE_CLASSES = ["INCONCLUSIVE", "NONE", "PROCEED", "REJECT"]
FINAL_CLASSES = ["FAIL", "NONE", "PASS"]
SEED = 0
#: Inverse L2 strength of the regression (scikit-learn's C); buckets of the hashed words.
C = 5.0
BUCKETS = 4096
#: Per head: the probability a reading needs, and the scale its confidence gets (below 0.5, under the rules' readings).
THRESHOLDS = {"gate": 0.94, "final": 0.94}
CONFIDENCE_SCALE = 0.49
#: The close of an answer: its last paragraphs, until they hold this many characters (at most three paragraphs).
CLOSING_CHARS = 240
_PARAGRAPHS = re.compile(r"\n[ \t>]*\n")
Span = tuple[int, int]


def closing_text(text: str) -> tuple[str, Span] | None:
    """The answer's close: its last paragraph, with the ones before it while together they hold fewer than
    :data:`CLOSING_CHARS` characters (three at most), and its span in ``text``; None for an empty text.

    Examples
    --------
    >>> closing_text("Gate 1 passes.\\n\\nAll told, we buy.")
    ('Gate 1 passes.\\n\\nAll told, we buy.', (0, 33))
    >>> closing_text("  ") is None
    True
    """
    bounds: list[Span] = []
    start = 0
    for m in _PARAGRAPHS.finditer(text):
        bounds.append((start, m.start()))
        start = m.end()
    bounds.append((start, len(text)))
    chosen: list[Span] = []
    for a, b in reversed(bounds):
        if not text[a:b].strip():
            continue
        chosen.insert(0, (a, b))
        if len(chosen) >= 3 or sum(len(text[x:y].strip()) for x, y in chosen) >= CLOSING_CHARS:
            break
    if not chosen:
        return None
    a, b = chosen[0][0], chosen[-1][1]
    while a < b and text[a].isspace():
        a += 1
    while b > a and text[b - 1].isspace():
        b -= 1
    return text[a:b], (a, b)


def card_outcome_pair(card: Any) -> tuple[str, str] | None:
    """The card's (pass, fail) outcomes when its gates decide no other outcome; None for a card whose regimes or
    branches decide more (Dalio's debt cycle, Marks's cycle positioning: 'pass' is no single outcome there)."""
    pass_outcome, fail_outcome = card.outcomes.get("pass"), card.outcomes.get("fail")
    if not pass_outcome or not fail_outcome:
        return None
    decided = {pass_outcome, fail_outcome}
    for gate in card.gates:
        for branch in gate.branches.values():
            decided.update((branch.pass_outcome, branch.fail_outcome))
    return (pass_outcome, fail_outcome) if len(decided) == 2 else None




def batch_of(case_id: str) -> str:
    """The blind batch a case belongs to ("n34"), or "early" for the cases written before the blind batches."""
    m = re.match(r"(n\d\d)-", case_id)
    return m.group(1) if m else "early"


def half_of(case: dict[str, Any]) -> str:
    return "a" if str(case.get("modelled_on", "")).startswith("Answer to ipb item") else "b"


def examples(cases: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Gate and final examples of the tuned ``cases`` (see the module docstring), in case order."""
    from ipb.engine.registry import compiled_card
    from ipb.scoring.parse import _stance, parse_response

    _stance.STATE["enabled"] = False
    out: list[dict[str, Any]] = []
    for case in sorted(cases, key=lambda c: str(c["id"])):
        if case["split"] != "tuned":
            continue
        card = compiled_card(case["card"]).card
        result = parse_response(case["text"], card)
        common = {"id": case["id"], "card": case["card"], "batch": batch_of(case["id"]), "half": half_of(case)}
        labelled = {}
        for item in case["expect"]["gates"]:
            number, verdict = str(item).split(" ", 1)
            labelled[int(number)] = verdict
        if result.status == "ok":
            for g in result.gates:
                want = labelled.get(g.gate)
                if want is None or want == "N/A" or g.span[1] <= g.span[0]:
                    continue
                out.append({**common, "head": "gate", "text": case["text"][g.span[0] : g.span[1]],
                            "label": "NONE" if want == "-" else want, "unread": g.verdict is None})
        pair = card_outcome_pair(card)
        closing = closing_text(case["text"])
        want_final = case["expect"]["final_verdict"]
        if pair is None or closing is None or (want_final is not None and want_final not in pair):
            continue
        label = "NONE" if want_final is None else ("PASS" if want_final == pair[0] else "FAIL")
        out.append({**common, "head": "final", "text": closing[0], "label": label,
                    "unread": result.final_verdict is None})
    return out


def text_rows(ex: list[dict[str, Any]]) -> np.ndarray:
    """The features of every example, its card's gate names left out (as the parser reads a section)."""
    from ipb.engine.registry import compiled_card
    from ipb.scoring.parse._stance import features, name_words

    skip = {card: name_words(compiled_card(card).card) for card in sorted({e["card"] for e in ex})}
    return np.vstack([features([e["text"]], BUCKETS, skip[e["card"]]) for e in ex])


def fit(x: np.ndarray, y: list[str], classes: list[str]) -> tuple[np.ndarray, np.ndarray]:
    """Multinomial logistic regression (L2, :data:`C`, lbfgs, fixed seed): (coef (k, d), intercept (k,)) in ``classes``
    order; a class absent from ``y`` gets zero weights and a very low intercept."""
    from sklearn.linear_model import LogisticRegression

    model = LogisticRegression(C=C, max_iter=2000, random_state=SEED)
    model.fit(x, y)
    if len(model.classes_) < 3:
        raise SystemExit(f"the examples hold {len(model.classes_)} classes: a head needs at least 3 to be fitted")
    coef = np.zeros((len(classes), x.shape[1]))
    intercept = np.full(len(classes), -30.0)
    for k, name in enumerate(model.classes_):
        j = classes.index(str(name))
        coef[j], intercept[j] = model.coef_[k], model.intercept_[k]
    return coef, intercept


def head_json(coef: np.ndarray, intercept: np.ndarray, classes: list[str], threshold: float) -> dict[str, Any]:
    return {"classes": classes, "threshold": threshold, "confidence_scale": CONFIDENCE_SCALE,
            "coef": [[round(float(v), 5) for v in row] for row in coef],
            "intercept": [round(float(v), 5) for v in intercept]}


def weights_text(heads: dict[str, dict[str, Any]], buckets: int = BUCKETS) -> str:
    """The weights file's text, keys sorted: the same numbers give the same bytes."""
    body = {"version": 1, "features": "crc32 word unigrams and bigrams", "buckets": buckets, "heads": heads}
    return json.dumps(body, sort_keys=True, separators=(",", ":")) + "\n"


def _decide(coef: np.ndarray, intercept: np.ndarray, classes: list[str], rows: np.ndarray, threshold: float):
    from ipb.scoring.parse._stance import decide

    return decide({"classes": classes, "coef": coef, "intercept": intercept, "threshold": threshold}, rows)


def grouped_cv(rows: np.ndarray, ex: list[dict[str, Any]], classes: list[str], head: str) -> None:
    """Leave-one-batch-out figures for one head (printed)."""
    idx = [i for i, e in enumerate(ex) if e["head"] == head]
    batches = sorted({ex[i]["batch"] for i in idx})
    tallies: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0, 0, 0, 0])  # all, right, unread, read, read right
    bands: dict[float, list[int]] = defaultdict(lambda: [0, 0])
    for b in batches:
        train = [i for i in idx if ex[i]["batch"] != b]
        test = [i for i in idx if ex[i]["batch"] == b]
        coef, intercept = fit(rows[train], [ex[i]["label"] for i in train], classes)
        probs = _decide(coef, intercept, classes, rows[test], 0.0)
        readings = _decide(coef, intercept, classes, rows[test], THRESHOLDS[head])
        for i, (top, p), (label, _) in zip(test, probs, readings):
            e = ex[i]
            for key in ((b, e["half"]), ("all", e["half"]), ("all", "ab")):
                t = tallies[key]
                t[0] += 1
                t[1] += int((top or "NONE") == e["label"])
                if e["unread"]:
                    t[2] += 1
                    if label is not None:
                        t[3] += 1
                        t[4] += int(label == e["label"])
            if e["unread"] and top is not None:
                for cut in (0.5, 0.6, 0.7, 0.75, 0.8, 0.85, 0.9):
                    if p >= cut:
                        bands[cut][0] += 1
                        bands[cut][1] += int(top == e["label"])
    print(f"\n== {head} head: leave-one-batch-out ({len(idx)} examples; threshold {THRESHOLDS[head]})")
    print(f"{'batch':>6} {'half':>4} {'n':>5} {'acc':>6} | {'unread':>6} {'read':>5} {'right':>5} {'prec':>6}")
    for (b, h), t in sorted(tallies.items()):
        acc = t[1] / t[0] if t[0] else 0.0
        prec = f"{t[4] / t[3]:.0%}" if t[3] else "-"
        print(f"{b:>6} {h:>4} {t[0]:>5} {acc:>6.0%} | {t[2]:>6} {t[3]:>5} {t[4]:>5} {prec:>6}")
    print("unread items, a verdict class on top, by probability: cut, read, right")
    for cut, (n, r) in sorted(bands.items()):
        print(f"  p >= {cut:.2f}: {n:>4} read, {r:>4} right ({r / n:.0%})" if n else f"  p >= {cut:.2f}: none")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    ap.add_argument("--cache", type=Path, help="keep the examples and their vectors here (npz) and reuse them")
    ap.add_argument("--write", action="store_true", help="write scoring/parse/stance.json")
    args = ap.parse_args(argv)
    if args.cache is not None and args.cache.exists():
        saved = np.load(args.cache, allow_pickle=False)
        ex = json.loads(str(saved["examples"]))
        if any("card" not in e for e in ex):  # a cache written before the examples carried their card
            card_of = {str(c["id"]): c["card"] for c in load_corpus(args.corpus)}
            ex = [{**e, "card": card_of[e["id"]]} for e in ex]
    else:
        ex = examples(load_corpus(args.corpus))
        if args.cache is not None:
            np.savez(args.cache, examples=json.dumps(ex))
    rows = text_rows(ex)
    grouped_cv(rows, ex, GATE_CLASSES, "gate")
    grouped_cv(rows, ex, FINAL_CLASSES, "final")
    if args.write:
        idx = [i for i, e in enumerate(ex) if e["head"] == "gate"]
        coef, intercept = fit(rows[idx], [ex[i]["label"] for i in idx], GATE_CLASSES)
        heads = {"gate": head_json(coef, intercept, GATE_CLASSES, THRESHOLDS["gate"])}
        WEIGHTS.write_text(weights_text(heads), encoding="utf-8")
        print(f"wrote {WEIGHTS.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
