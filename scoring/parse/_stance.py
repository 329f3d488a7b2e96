"""The learned stance reader: a verdict for a gate the rules found but left unread, and for an unstated final verdict.

Wild analyses judge a criterion in their own words ("comfortably inside our 20% bar", "not negligible, not
alarming"); phrase rules tuned on one batch did not carry to the next. This reader is a multinomial logistic
regression over the text's words: its word unigrams and bigrams, hashed (CRC-32) into ``buckets`` (4096) present /
absent features, the row scaled to unit length (:func:`features`). It is fitted on the labelled corpus's tuned split by
``bench/train_stance.py``; only its weights ship, as ``stance.json`` (package data read through
:mod:`importlib.resources`), and they are applied here with numpy. The words were chosen over the sentence embedding
of the text (all-MiniLM-L6-v2): in the cross-validation grouped by batch the embedding read unread gates no better
than ~75% right at any cut-off, the words 87% at the one shipped (the figures: docs/scoring.md, "Learned stance").

The ``gate`` head reads the text of a gate's section (``GateTrace.span``) as PROCEED, REJECT, INCONCLUSIVE or NONE
(discussed, no verdict: the corpus label ``-``). The training script also measures a ``final`` head (the answer's close
as the card's pass outcome, its fail outcome or no commitment); it read the close of answers whose final verdict the
rules missed about half right in the cross-validation grouped by batch, so it is not shipped.

The reader only fills what the rules left empty and never changes a verdict they read. It abstains when the top
class is NONE, and when its probability is under the head's ``threshold`` (set in the training script from the
cross-validation grouped by batch: train on the other batches, test on one). It runs with the parser's other
learned fallback, the embedding one (the default of ``ipb parse`` and ``ipb score``); ``--no-embed`` parses with the
rules alone. A reading's confidence is the probability times ``confidence_scale``, below 0.5: it ranks under every
reading of the rules and far below 0.7, the review bar ``ipb score --min-confidence`` routes on. Its ``how`` ends in
``+stance`` (gates) so a user sees where it came from.

References: paper §7.5 (the response parser); issue 13 item 3 (confidence).
"""

from __future__ import annotations

import json
import re
import zlib
from functools import lru_cache
from importlib import resources
from typing import Any

from ipb.scoring.parse._types import GateTrace, Span

#: The weights' file inside this package.
WEIGHTS_FILE = "stance.json"
#: The classes a head predicts that are no verdict.
NONE = "NONE"
#: At most this many characters of a gate's section or of the answer's close are read.
MAX_CHARS = 4000
#: A word (letters of any script) or a comparison sign: the units the features are made of.
_WORD = re.compile(r"[^\W\d_]+|[<>=%]")


def name_words(card: Any) -> frozenset[str]:
    """The words of the card's gate names, aliases and ids (lower case): left out of the features, so a gate is read
    by what its section says of it, not by how often a gate of that name passes ("Economic moat: vale." must not
    read PROCEED because moats usually pass)."""
    words: set[str] = set()
    for gate in card.gates:
        for text in (gate.name, gate.id, *(gate.aliases or ())):
            words.update(_WORD.findall(str(text).replace("_", " ").lower()))
    return frozenset(words)


def features(texts: list[str], buckets: int, skip: frozenset[str] = frozenset()) -> Any:
    """Rows of shape (len(texts), buckets): for each text (its first :data:`MAX_CHARS` characters, lower-cased) less
    the words in ``skip`` (:func:`name_words`), 1 in the bucket ``crc32(g) % buckets`` of each of its words and pairs
    of adjacent words ``g``, the row scaled to unit length (an empty row stays 0).

    Examples
    --------
    >>> row = features(["Fails: too dear"], 8)[0]
    >>> round(float(row @ row), 6)
    1.0
    """
    import numpy as np

    rows = np.zeros((len(texts), buckets))
    for i, text in enumerate(texts):
        words = [w for w in _WORD.findall(text[:MAX_CHARS].lower()) if w not in skip]
        for gram in words + [a + " " + b for a, b in zip(words, words[1:])]:
            rows[i, zlib.crc32(gram.encode("utf-8")) % buckets] = 1.0
        norm = float(np.linalg.norm(rows[i]))
        if norm:
            rows[i] /= norm
    return rows


@lru_cache(maxsize=1)
def load_weights() -> dict[str, Any] | None:
    """The shipped weights (``stance.json``) as numpy arrays per head, or None when the file is absent.

    Returns
    -------
    dict
        ``buckets`` (int, d); ``heads``: per head name a dict with ``classes`` (list of str, k), ``coef`` (k, d),
        ``intercept`` (k,), ``threshold`` and ``confidence_scale`` (floats).
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
    return {"buckets": int(data["buckets"]), "heads": heads}


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


#: ``enabled`` False turns the reader off (the training script parses the corpus with it off).
STATE = {"enabled": True}


def _ready() -> dict[str, Any] | None:
    """The weights, when the reader is on and they ship."""
    return load_weights() if STATE["enabled"] else None


def stance_gates(text: str, gates: list[GateTrace], card: Any) -> int:
    """Give each gate of ``gates`` still without a verdict the ``gate`` head's reading of its section, in place.

    ``text`` is the text the spans index; ``card`` the card whose gate names are left out (:func:`name_words`). A gate with a verdict is never touched. Returns how many were read.
    """
    todo = [g for g in gates if g.verdict is None and g.span[1] > g.span[0]]
    weights = _ready() if todo else None
    if weights is None:
        return 0
    head = weights["heads"]["gate"]
    rows = features([text[g.span[0] : g.span[1]] for g in todo], weights["buckets"], name_words(card))
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
