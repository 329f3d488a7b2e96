"""Element matching (paper §7.7): numbers, comparison direction, negation, cosine.

The :class:`ElementMatcher` every element-based metric and detector uses, its
threshold calibration, and the sentence splitter.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from statistics import median
from typing import Sequence

import numpy as np
from numpy.typing import NDArray

from ipb.engine.numbers import decimal_comma_convention
from ipb.scoring._numbers import figure_value
from ipb.errors import ScoreError
from ipb.scoring.embeddings import Encoder, default_encoder, embed
from ipb.scoring.metrics._comparison import compare_readings, read_comparison


#: Cosine threshold for conceptual element matches with the default
#: all-MiniLM-L6-v2 encoder: the F1-optimal threshold (:func:`calibrate_threshold`)
#: on the 102 hand-labelled pairs of ``tests/scoring/data/kccs_pairs.json``,
#: guards on. There: F1 0.75, precision 0.84, recall 0.68, accuracy 0.75;
#: the best-F1 plateau spans 0.38-0.42; two-fold cross-validation picks 0.39 /
#: 0.42 with held-out F1 0.81 / 0.62. The paper's 0.82 (text-embedding-3-large)
#: gives F1 0.30 with MiniLM, which scores short paraphrases far lower.
DEFAULT_CONCEPT_THRESHOLD = 0.41
#: The paper's threshold, set for text-embedding-3-large (§7.7); not for MiniLM.
PAPER_KCCS_THRESHOLD = 0.82
#: Relative tolerance for numbers matched "exactly" (rounding: $25.0B = $25B).
DEFAULT_REL_TOL = 1e-3
#: Relative tolerance when the gold element marks its number approximate (~, about).
DEFAULT_APPROX_REL_TOL = 0.10


@dataclass(frozen=True)
class Quantity:
    """A number found in text, scaled, with a coarse unit.

    ``unit`` is ``money`` ($), ``ratio`` (%, stored as a fraction),
    ``multiple`` (x, ×, times) or ``plain``.
    """

    value: float
    unit: str
    #: Half a unit of the figure's last written place, on the scale of ``value`` ("16.7%": 0.0005,
    #: "$1.25B": 5e6); 0 for a fraction, which is exact, and for a figure of one significant digit.
    #: A gold figure that rounds to the written one is that figure (§7.7's exact match, read as
    #: answers write numbers).
    half_unit: float = 0.0


_NUMBER = re.compile(
    r"(?<![\w.])(?P<neg>[-−–])?(?P<cur>\$)?"
    r"(?P<num>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+)"
    r"(?:\s?/\s?(?P<den>\d+(?:\.\d+)?))?"
    r"(?:\s?(?P<suf>%|percent\b|per\s?cent\b|x\b|×|times\b|trillion\b|billion\b|million\b|thousand\b|bn\b|mn\b|[kmbt]\b))?",
    re.IGNORECASE,
)
_WORD_FRACTIONS = re.compile(
    r"\b(two[- ]thirds|one[- ]third|one[- ]half|three[- ]quarters|one[- ]quarter)\b", re.IGNORECASE
)
_FRACTION_VALUES = {"twothirds": 2 / 3, "onethird": 1 / 3, "onehalf": 0.5, "threequarters": 0.75, "onequarter": 0.25}
_SCALE = {"k": 1e3, "thousand": 1e3, "m": 1e6, "mn": 1e6, "million": 1e6, "b": 1e9, "bn": 1e9, "billion": 1e9}
_SCALE.update({"t": 1e12, "trillion": 1e12})
_APPROX = re.compile(r"[~≈]|\b(?:about|approx(?:imately)?|around|roughly|circa|nearly|some)\b", re.IGNORECASE)


_SWAP_MARKS = str.maketrans(",.", ".,")


@lru_cache(maxsize=65536)
def _quantities(text: str) -> tuple[Quantity, ...]:
    found: list[Quantity] = []
    if decimal_comma_convention(text):  # "1.234,5" / "2,5 %" read as 1,234.5 / 2.5% (issue 13, by context)
        text = text.translate(_SWAP_MARKS)
    for m in _NUMBER.finditer(text):
        # found here, valued by the one number reader (engine.numbers) in the figure's plain spelling: "2.5 percent"
        # as "2.5%", "3 times" as "3x", "$1.25 bn" as "1.25 bn" (the unit is this matcher's: a currency with a
        # percentage is a ratio); exact, then one rounding to a float
        plain = m.group("num").replace(",", "")
        suffix = (m.group("suf") or "").lower().replace(" ", "")
        unit = "money" if m.group("cur") else "plain"
        if m.group("den"):
            num, den = figure_value(plain), figure_value(m.group("den"))
            if num is None or not den:
                continue
            value = num / den
        else:
            pending = None
            if suffix in ("%", "percent"):
                pending, unit = figure_value(plain + "%"), "ratio"
            elif suffix in ("x", "\u00d7", "times"):
                pending, unit = figure_value(plain + "x"), "multiple"
            else:
                pending = figure_value(plain + (" " + suffix if suffix else ""))
            if pending is None:
                continue  # beyond the reader's limits (more than 60 digits)
            value = pending
        if m.group("den") and suffix in ("%", "percent"):
            value, unit = value / 100.0, "ratio"
        elif m.group("den") and suffix in ("x", "\u00d7", "times"):
            unit = "multiple"
        elif m.group("den") and suffix:
            value *= _SCALE[suffix]
        if m.group("neg"):
            value = -value
        half = 0.0  # a figure of one significant digit ("3%") is not read as a rounding: 3.2% is not 3%
        if not m.group("den") and float(plain) and len(plain.replace(".", "").lstrip("0")) >= 2:
            half = 0.5 * 10.0 ** -len(plain.partition(".")[2]) * abs(value / float(plain))
        found.append(Quantity(value, unit, half))
    for m in _WORD_FRACTIONS.finditer(text):
        found.append(Quantity(_FRACTION_VALUES[re.sub(r"[- ]", "", m.group(1).lower())], "plain"))
    return tuple(found)


def extract_quantities(text: str) -> list[Quantity]:
    """Numbers with units in ``text``: $5B, 10x, 95%, 2/3, two-thirds, −$2B.

    Money suffixes K/M/B/T (and bn, million, billion...) scale the value;
    percentages become fractions; a unicode minus or en dash before a number
    negates it. Linear-time regular expressions (no nested quantifiers).

    Examples
    --------
    >>> [(q.value, q.unit) for q in extract_quantities("price $50B vs ~$25B, 2x premium, retention >= 90%")]
    [(50000000000.0, 'money'), (25000000000.0, 'money'), (2.0, 'multiple'), (0.9, 'ratio')]
    >>> [(round(q.value, 4), q.unit) for q in extract_quantities("−$2B and 2/3")]
    [(-2000000000.0, 'money'), (0.6667, 'plain')]

    A text that writes the comma as its decimal mark
    (:func:`ipb.engine.numbers.decimal_comma_convention`) is read that way:

    >>> [(q.value, q.unit) for q in extract_quantities("NCAV $1.234,5M, margin 2,5 %")]
    [(1234500000.0, 'money'), (0.025, 'ratio')]
    """
    return list(_quantities(text))


_WORD_L, _WORD_R = r"(?<![a-z])", r"(?![a-z])"
_DOWN_CUES = (
    r"no\s+more\s+than|not\s+more\s+than|no\s+higher\s+than|not\s+(?:above|over|exceed(?:ing)?)|"
    r"at\s+most|up\s+to|less\s+than|lower\s+than|fewer\s+than|smaller\s+than|cheaper\s+than|"
    r"below|beneath|under(?=\s*[-−$\d.])|short\s+of|<=|≤|<|maximum(?:\s+of)?|capped\s+at|lower|less|cheaper"
)
_UP_CUES = (
    r"no\s+less\s+than|not\s+less\s+than|no\s+lower\s+than|not\s+(?:below|under)|"
    r"at\s+least|more\s+than|greater\s+than|higher\s+than|larger\s+than|above|"
    r"exceed(?:s|ed|ing)?|in\s+excess\s+of|beyond|over(?=\s*[-−$\d.])|>=|≥|>|minimum(?:\s+of)?|higher|greater"
)
_DIRECTION = re.compile(rf"{_WORD_L}(?:(?P<down>{_DOWN_CUES})|(?P<up>{_UP_CUES})){_WORD_R}")
_NEG_BEFORE = re.compile(r"(?:\bnot|\bnever|n't|\bno)\s+(?:[a-z]+\s+)?$")
_NEGATION = re.compile(
    r"\b(?:not|no|never|lacks?|lacking|lacked|absent|absence|none|neither|nor|cannot|outside|"
    r"dishonest|unable|insufficient|insufficiency|unprofitable|unknown|unclear)\b|n't\b|"
    r"\bfail(?:s|ed|ing)?\s+to\b|"
    # "without" negates, except before a word that is itself a loss ("without losing customers")
    r"\bwithout\b(?!\s+(?:losing|hurting|harming|sacrificing|damaging|reducing|loss|hurt)\b)"
)


@lru_cache(maxsize=65536)
def _analyse(text: str) -> tuple[str | None, bool]:
    low = text.lower().replace("_", " ").replace("’", "'")
    directions: set[str] = set()
    spans: list[tuple[int, int]] = []
    for m in _DIRECTION.finditer(low):
        d = "down" if m.group("down") else "up"
        start = m.start()
        before = low[max(0, start - 24) : start]
        neg = _NEG_BEFORE.search(before)
        if neg:
            d = "up" if d == "down" else "down"
            start = start - len(before) + neg.start()
        spans.append((start, m.end()))
        directions.add(d)
    masked = list(low)
    for a, b in spans:
        masked[a:b] = " " * (b - a)
    negations = len(_NEGATION.findall("".join(masked)))
    return (directions.pop() if len(directions) == 1 else None), negations % 2 == 1


def comparison_direction(text: str) -> str | None:
    """``"up"`` (above, exceeds, >=, at least...), ``"down"`` (below, under, <=,
    at most...) or None (no cue, or cues that disagree).

    A negation just before a cue flips it ("not above" is down, "no less than"
    is up). "over"/"under" count only before a number.

    Examples
    --------
    >>> comparison_direction("debt above 3x"), comparison_direction("debt below 3x")
    ('up', 'down')
    >>> comparison_direction("price does not exceed intrinsic value"), comparison_direction("switching costs")
    ('down', None)
    """
    return _analyse(text)[0]


def is_negated(text: str) -> bool:
    """True when ``text`` carries an odd number of negations outside comparison cues.

    Examples
    --------
    >>> is_negated("no durable competitive advantage"), is_negated("durable competitive advantage")
    (True, False)
    >>> is_negated("debt no more than 3x")
    False
    """
    return _analyse(text)[1]


_NORM = re.compile(r"[^a-z0-9]+")


def _norm(text: str) -> str:
    return _NORM.sub(" ", text.lower()).strip()


def _human(text: str) -> str:
    return " ".join(text.replace("_", " ").split())


def _quantities_match(gold: Sequence[Quantity], predicted: Sequence[Quantity], tol: float) -> bool:
    for g in gold:
        if not any(
            (g.unit == p.unit or "plain" in (g.unit, p.unit))
            and abs(g.value - p.value) <= max(tol * max(abs(g.value), abs(p.value)), p.half_unit)
            for p in predicted
        ):
            return False
    return True


def _max_matching(adjacency: Sequence[Sequence[bool]]) -> list[tuple[int, int]]:
    """Maximum bipartite matching (Kuhn's augmenting paths), deterministic."""
    n_right = len(adjacency[0]) if adjacency else 0
    owner: list[int | None] = [None] * n_right

    def augment(i: int, seen: list[bool]) -> bool:
        for j in range(n_right):
            if adjacency[i][j] and not seen[j]:
                seen[j] = True
                current = owner[j]
                if current is None or augment(current, seen):
                    owner[j] = i
                    return True
        return False

    for i in range(len(adjacency)):
        augment(i, [False] * n_right)
    return sorted((i, j) for j, i in enumerate(owner) if i is not None)


@lru_cache(maxsize=65536)
def _decide(gold: str, predicted: str, rel_tol: float, approx_rel_tol: float) -> tuple[bool | None, str]:
    """:meth:`ElementMatcher.decide`, cached: the same pairs recur across gates, metrics and responses."""
    g_dir, g_neg = _analyse(gold)
    p_dir, p_neg = _analyse(predicted)
    g_cmp, p_cmp = read_comparison(gold), read_comparison(predicted)
    structural = compare_readings(g_cmp, p_cmp)
    if structural is False:
        return False, "direction"  # the same quantities compared the other way (or swapped)
    if structural is None and g_neg != p_neg:  # an aligned reading has read its own negations ("fails to clear")
        return False, "negation"
    if structural is None and g_dir is not None and p_dir is not None and g_dir != p_dir:
        return False, "direction"
    g_q = _quantities(gold)
    if g_q:
        tol = approx_rel_tol if _APPROX.search(gold) else rel_tol
        ok = _quantities_match(g_q, _quantities(predicted), tol)
        return ok, "numeric" if ok else "numeric-mismatch"
    if structural and g_cmp is not None and p_cmp is not None and None not in (g_cmp.subject, g_cmp.object):
        return True, "comparison"
    g_n, p_n = _norm(gold), _norm(predicted)
    if not g_n:
        return False, "empty"
    if g_n == p_n:
        return True, "exact"
    if f" {g_n} " in f" {p_n} ":
        return True, "contains"
    return None, "semantic"


@dataclass(frozen=True)
class ElementMatcher:
    """Decides whether a detected element matches a gold element (§7.7).

    A gold element **with a number** is numeric: every number in it must
    appear in the detected element with a compatible unit, equal within
    ``rel_tol`` (``approx_rel_tol`` when the gold marks it approximate: ~, ≈,
    about, around...). A gold element **without a number** is conceptual:
    it matches when the normalised texts are equal, when the gold phrase
    occurs word-for-word inside the detected one, or when the cosine of
    their embeddings is at least ``threshold``. Both kinds pass two guards
    first, because embeddings score "debt above 3x" and "debt below 3x" as
    near-identical (0.96 with MiniLM):

    - **negation**: both texts must be negated or both not ("no durable
      moat" never matches "durable moat");
    - **comparison** (:mod:`ipb.scoring.metrics._comparison`): both are read
      as ``(subject, relation, object, number)``; when the two readings
      align (same quantities, either way round) they must state the same
      comparison ("intrinsic value exceeds the price" is not "price exceeds
      intrinsic value"; "trades at a discount to intrinsic value" is "price
      below value"), and an aligned agreement on a gold element without a
      number is a match; when they cannot be aligned, the bare directions
      (above/below, >=/<=, at least/at most) must not disagree.

    Parameters
    ----------
    encoder : Encoder, optional
        Sentence encoder for conceptual elements (default MiniLM when
        needed; never loaded when every pair is decided lexically).
    threshold : float
        Cosine threshold; default :data:`DEFAULT_CONCEPT_THRESHOLD`.
    rel_tol, approx_rel_tol : float
        Relative numeric tolerances.
    """

    encoder: Encoder | None = None
    threshold: float = DEFAULT_CONCEPT_THRESHOLD
    rel_tol: float = DEFAULT_REL_TOL
    approx_rel_tol: float = DEFAULT_APPROX_REL_TOL

    def decide(self, gold: str, predicted: str) -> tuple[bool | None, str]:
        """Lexical decision for one pair: (True/False, reason), or (None, "semantic")
        when only the cosine can decide."""
        return _decide(gold, predicted, self.rel_tol, self.approx_rel_tol)

    def match_matrix(self, gold: Sequence[str], predicted: Sequence[str]) -> NDArray[np.bool_]:
        """Boolean matrix, shape (len(gold), len(predicted)): does detected j match gold i."""
        out = np.zeros((len(gold), len(predicted)), dtype=bool)
        pending: list[tuple[int, int]] = []
        for i, g in enumerate(gold):
            for j, p in enumerate(predicted):
                decided, _ = self.decide(g, p)
                if decided is None:
                    pending.append((i, j))
                else:
                    out[i, j] = decided
        if pending:
            sims = self.similarities([gold[i] for i, _ in pending], [predicted[j] for _, j in pending])
            for (i, j), s in zip(pending, sims):
                out[i, j] = s >= self.threshold
        return out

    def similarities(self, left: Sequence[str], right: Sequence[str]) -> NDArray[np.float64]:
        """Cosine of each ``left[k]`` with ``right[k]`` (one encoder batch, each
        distinct text embedded once)."""
        texts = list(dict.fromkeys(_human(t) for t in (*left, *right)))
        encoder = self.encoder if self.encoder is not None else default_encoder()
        vectors = embed(encoder, texts)
        index = {t: k for k, t in enumerate(texts)}
        a = vectors[[index[_human(t)] for t in left]]
        b = vectors[[index[_human(t)] for t in right]]
        result: NDArray[np.float64] = np.clip(np.sum(a * b, axis=1), -1.0, 1.0)
        return result

    def matched_pairs(self, gold: Sequence[str], predicted: Sequence[str]) -> list[tuple[int, int]]:
        """A maximum one-to-one matching of gold to detected elements."""
        if not gold or not predicted:
            return []
        return _max_matching(self.match_matrix(gold, predicted).tolist())

    def f1(self, gold: Sequence[str], predicted: Sequence[str]) -> float:
        """Element F1 :math:`2|E \\cap \\hat E| / (|E| + |\\hat E|)`; 1.0 when both are empty."""
        if not gold and not predicted:
            return 1.0
        return 2 * len(self.matched_pairs(gold, predicted)) / (len(gold) + len(predicted))

    def recall(self, gold: Sequence[str], predicted: Sequence[str]) -> float:
        """Fraction of gold elements matched one-to-one; 1.0 when ``gold`` is empty."""
        if not gold:
            return 1.0
        return len(self.matched_pairs(gold, predicted)) / len(gold)


def element_f1(gold: Sequence[str], predicted: Sequence[str], matcher: ElementMatcher | None = None) -> float:
    """Gate-level KCCS: :math:`2|E_g \\cap \\hat E_g| / (|E_g| + |\\hat E_g|)` (§7.7).

    ``|E ∩ Ê|`` is the size of a maximum one-to-one matching under
    :class:`ElementMatcher`, so one detected element never covers two gold
    elements. Both empty: 1.0.

    Examples
    --------
    >>> m = ElementMatcher(encoder=None)
    >>> element_f1(["price $50B", "debt above 3x"], ["asking price of $50 billion", "debt below 3x"], m)
    0.5
    """
    return (matcher or ElementMatcher()).f1(gold, predicted)


@dataclass(frozen=True)
class CalibrationResult:
    """Best cosine threshold on a labelled pair set, and its quality there."""

    threshold: float
    f1: float
    precision: float
    recall: float
    accuracy: float
    n: int
    n_semantic: int


def calibrate_threshold(
    pairs: Sequence[tuple[str, str, bool]],
    encoder: Encoder | None = None,
    grid: Sequence[float] | None = None,
) -> CalibrationResult:
    """Choose the conceptual-match cosine threshold that maximises match F1.

    Each pair ``(gold, detected, label)`` is judged by :class:`ElementMatcher`
    (guards and lexical rules included) at every threshold in ``grid``
    (default 0.30, 0.31, ..., 0.95); among the thresholds with the best F1 the
    median one is returned, the middle of the best plateau.

    Parameters
    ----------
    pairs : sequence of (str, str, bool)
        Labelled element pairs; True means "should match".
    encoder : Encoder, optional
        Default: the offline MiniLM.
    grid : sequence of float, optional

    Returns
    -------
    CalibrationResult

    Raises
    ------
    ScoreError
        ``pairs`` is empty.
    """
    if not pairs:
        raise ScoreError("calibration needs at least one labelled pair", rule="calibration")
    grid = list(grid) if grid is not None else [round(0.30 + 0.01 * k, 2) for k in range(66)]
    matcher = ElementMatcher(encoder)
    decided = [matcher.decide(g, p)[0] for g, p, _ in pairs]
    pending = [k for k, d in enumerate(decided) if d is None]
    sims = np.zeros(len(pairs))
    if pending:
        sims[pending] = matcher.similarities([pairs[k][0] for k in pending], [pairs[k][1] for k in pending])
    labels = np.array([bool(lab) for _, _, lab in pairs])
    rows = []
    for t in grid:
        pred = np.array([d if d is not None else bool(sims[k] >= t) for k, d in enumerate(decided)])
        tp = int(np.sum(pred & labels))
        fp = int(np.sum(pred & ~labels))
        fn = int(np.sum(~pred & labels))
        precision = tp / (tp + fp) if tp + fp else 1.0
        recall = tp / (tp + fn) if tp + fn else 1.0
        f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
        rows.append((t, f1, precision, recall, float(np.mean(pred == labels))))
    best = max(r[1] for r in rows)
    plateau = [r for r in rows if r[1] == best]
    chosen = min(plateau, key=lambda r: abs(r[0] - median(p[0] for p in plateau)))
    return CalibrationResult(chosen[0], chosen[1], chosen[2], chosen[3], chosen[4], len(pairs), len(pending))



_SENTENCE_END = re.compile(r"(?<=[.!?])\s+|\n+")


def split_sentences(text: str) -> list[str]:
    """Split on sentence-final punctuation and line breaks; drop empty pieces.

    >>> split_sentences("First. Then this!\\n- a bullet")
    ['First.', 'Then this!', '- a bullet']
    """
    return [s.strip() for s in _SENTENCE_END.split(text) if s and s.strip()]


