"""The learned stance reader: a verdict for a gate the rules found but left unread, and for an unstated final verdict.

Wild analyses judge a criterion in their own words ("comfortably inside our 20% bar", "not negligible, not
alarming"); phrase rules tuned on one batch did not carry to the next. This reader is a multinomial logistic
regression over the sentence embedding of the text (the default embedder, all-MiniLM-L6-v2, unit rows of 384
numbers), fitted on the labelled corpus's tuned split by ``bench/train_stance.py``; only its weights ship, as
``stance.json`` (package data read through :mod:`importlib.resources`), and they are applied here with numpy.

Two heads:

``gate``
    The text of a gate's section (``GateTrace.span``) -> PROCEED, REJECT, INCONCLUSIVE or NONE (discussed, no
    verdict: the corpus label ``-``).
``final``
    The answer's close (:func:`closing_text`) -> the card's pass outcome, its fail outcome, or NONE (no commitment).

The reader only fills what the rules left empty and never changes a verdict they read. It abstains when the top
class is NONE, when its probability is under the head's ``threshold`` (set in the training script from the
cross-validation grouped by batch: train on the other batches, test on one), when the embedder is not the one the
weights were fitted for (a probe sentence's vector must match the stored one), and, for the final verdict, on a card
whose gates decide more than two outcomes (nothing tells which outcome "pass" means). A reading's confidence is the
probability times ``confidence_scale`` (below 0.7, the review bar ``ipb score --min-confidence`` routes on), and its
``how`` ends in ``+stance`` (gates) so a user sees where it came from.

References: paper §7.5 (the response parser); issue 13 item 3 (confidence).
"""

from __future__ import annotations

import json
import re
from functools import lru_cache
from importlib import resources
from typing import Any, Callable

from ipb.engine.card import Card
from ipb.scoring.parse._types import Embedder, GateTrace, Span

#: The weights' file inside this package.
WEIGHTS_FILE = "stance.json"
#: The sentence whose vector tells the embedder the weights were fitted for from any other.
PROBE = "The company passes this test comfortably, so we proceed."
#: The classes a head predicts that are no verdict.
NONE = "NONE"
#: At most this many characters of a gate's section or of the answer's close are embedded (MiniLM reads ~256 tokens).
MAX_CHARS = 1200
#: The close of an answer: its last paragraphs, until they hold this many characters (at most three paragraphs).
CLOSING_CHARS = 240

_PARAGRAPHS = re.compile(r"\n[ \t>]*\n")


def closing_text(text: str) -> tuple[str, Span] | None:
    """The answer's close: its last paragraph, with the ones before it while together they hold fewer than
    :data:`CLOSING_CHARS` characters (three at most), and its span in ``text``; None for an empty text.

    Examples
    --------
    >>> closing_text("Gate 1 passes.\\n\\nAll told, we buy.")
    ('All told, we buy.', (16, 33))
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


def card_outcome_pair(card: Card) -> tuple[str, str] | None:
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


def features(embedder: Embedder, texts: list[str]) -> Any:
    """Unit rows, shape (len(texts), d): each text (its first :data:`MAX_CHARS` characters) embedded alone."""
    import numpy as np

    from ipb.scoring.parse._paraphrase import _encode, _unit_rows

    if not texts:
        return np.zeros((0, 0))
    return _unit_rows(np.asarray(_encode(embedder, [t[:MAX_CHARS] for t in texts]), dtype=float))


@lru_cache(maxsize=1)
def load_weights() -> dict[str, Any] | None:
    """The shipped weights (``stance.json``) as numpy arrays per head, or None when the file is absent.

    Returns
    -------
    dict
        ``probe``: the probe sentence's vector, shape (d,); ``heads``: per head name a dict with ``classes`` (list
        of str, k), ``coef`` (k, d), ``intercept`` (k,), ``threshold`` and ``confidence_scale`` (floats).
    """
    import numpy as np

    try:
        raw = resources.files("ipb.scoring.parse").joinpath(WEIGHTS_FILE).read_text(encoding="utf-8")
    except (FileNotFoundError, OSError):
        return None
    data = json.loads(raw)
    heads = {}
    for name, head in data["heads"].items():
        heads[name] = {
            "classes": list(head["classes"]),
            "coef": np.asarray(head["coef"], dtype=float),
            "intercept": np.asarray(head["intercept"], dtype=float),
            "threshold": float(head["threshold"]),
            "confidence_scale": float(head["confidence_scale"]),
        }
    return {"probe": np.asarray(data["probe"], dtype=float), "heads": heads}


def probabilities(head: dict[str, Any], rows: Any) -> Any:
    """Softmax of ``rows @ coef.T + intercept``: shape (n, k), each row summing to 1 (the classes of ``head``)."""
    import numpy as np

    logits = rows @ head["coef"].T + head["intercept"]
    logits = logits - logits.max(axis=1, keepdims=True)
    e = np.exp(logits)
    return e / e.sum(axis=1, keepdims=True)


def decide(head: dict[str, Any], rows: Any) -> list[tuple[str | None, float]]:
    """Per row: (the top class, its probability), or (None, probability) when the top class is NONE or its
    probability is under the head's threshold (the reader abstains)."""
    out: list[tuple[str | None, float]] = []
    for row in probabilities(head, rows):
        k = int(row.argmax())
        p = float(row[k])
        label = head["classes"][k]
        out.append((None if label == NONE or p < head["threshold"] else label, p))
    return out


_FITTING: dict[int, bool] = {}


def _fits(embedder: Embedder, weights: dict[str, Any]) -> bool:
    """Whether ``embedder`` is the one the weights were fitted for: its vector of :data:`PROBE` matches the stored
    one (cosine >= 0.99). Kept per embedder object."""
    key = id(embedder)
    if key not in _FITTING:
        try:
            vec = features(embedder, [PROBE])[0]
            probe = weights["probe"]
            _FITTING[key] = vec.shape == probe.shape and float(vec @ probe) >= 0.99
        except Exception:  # noqa: BLE001 - an embedder that cannot embed the probe is not the one fitted for
            _FITTING[key] = False
    return _FITTING[key]


def _ready(embedder_of: Callable[[], Embedder | None] | None) -> tuple[dict[str, Any], Embedder] | None:
    """The weights and the embedder, when the reader is on, the weights ship and the embedder is theirs."""
    if embedder_of is None or not STATE["enabled"]:
        return None
    weights = load_weights()
    embedder = embedder_of() if weights is not None else None
    if weights is None or embedder is None or not _fits(embedder, weights):
        return None
    return weights, embedder


#: ``enabled`` False turns the reader off (the training script parses the corpus with it off).
STATE = {"enabled": True}


def stance_gates(text: str, gates: list[GateTrace], embedder_of: Callable[[], Embedder | None] | None) -> int:
    """Give each gate of ``gates`` still without a verdict the ``gate`` head's reading of its section, in place.

    ``text`` is the text the spans index; ``embedder_of`` gives the embedder (called only when a gate is unread),
    None when the parse runs without one. A gate with a verdict is never touched. Returns how many were read.
    """
    todo = [g for g in gates if g.verdict is None and g.span[1] > g.span[0]]
    ready = _ready(embedder_of) if todo else None
    if ready is None:
        return 0
    weights, embedder = ready
    head = weights["heads"]["gate"]
    rows = features(embedder, [text[g.span[0] : g.span[1]] for g in todo])
    read = 0
    for trace, (label, p) in zip(todo, decide(head, rows)):
        if label is None:
            continue
        trace.verdict = label
        trace.verdict_span = trace.span
        trace.how = trace.how + "+stance"
        trace.confidence = round(p * head["confidence_scale"], 3)
        read += 1
    return read


def stance_final(text: str, card: Card, embedder_of: Callable[[], Embedder | None] | None) -> tuple[str, Span, float] | None:
    """The ``final`` head's reading of the answer's close: (the card's outcome, the close's span, confidence), or
    None when it abstains (see the module docstring) or the card decides more than two outcomes."""
    pair = card_outcome_pair(card)
    closing = closing_text(text)
    ready = _ready(embedder_of) if pair is not None and closing is not None else None
    if ready is None or pair is None or closing is None:
        return None
    weights, embedder = ready
    head = weights["heads"]["final"]
    label, p = decide(head, features(embedder, [closing[0]]))[0]
    if label is None:
        return None
    outcome = pair[0] if label == "PASS" else pair[1]
    return outcome, closing[1], round(p * head["confidence_scale"], 3)
