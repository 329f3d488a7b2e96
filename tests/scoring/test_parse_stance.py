"""The learned stance reader (``scoring/parse/_stance.py``) and its training script (``bench/train_stance.py``).

The sentences are written for this test (none is from the corpus). Their probabilities are those of the shipped
weights: a retrained ``stance.json`` must be checked against them again.
"""

from __future__ import annotations

import numpy as np
import pytest

from ipb.scoring.parse import _stance
from ipb.scoring.parse._types import GateTrace
from tests.scoring.bench_support import load_bench

CARD = "buffett_acquisition_checklist"

CLEAR_PASS = "Clears it comfortably. Strong, consistent, well within the limit; no concerns."
LEANS_REJECT = "Fails. Far too expensive: not met, a clear miss, rejected."
LEANS_UNKNOWN = "We could not find the data; unknown for now."


def _head() -> dict:
    weights = _stance.load_weights()
    assert weights is not None
    return weights["heads"]["gate"]


def _read(text: str, skip: frozenset[str] = frozenset()) -> tuple[str | None, float]:
    weights = _stance.load_weights()
    assert weights is not None
    return _stance.decide(weights["heads"]["gate"], _stance.features([text], weights["buckets"], skip))[0]


def _top(text: str) -> str:
    weights = _stance.load_weights()
    assert weights is not None
    head = weights["heads"]["gate"]
    row = _stance.probabilities(head, _stance.features([text], weights["buckets"]))[0]
    return str(head["classes"][int(row.argmax())])


def test_weights_load_with_the_shapes_the_reader_needs():
    weights = _stance.load_weights()
    assert weights is not None and weights["buckets"] == 4096
    head = weights["heads"]["gate"]
    assert head["classes"] == ["INCONCLUSIVE", "NONE", "PROCEED", "REJECT"]
    assert head["coef"].shape == (4, 4096) and head["intercept"].shape == (4,)
    assert head["threshold"] == 0.94
    assert head["confidence_scale"] < 0.5  # a stance reading ranks under the rules' readings and the 0.7 review bar


def test_features_are_unit_rows_of_the_hashed_words():
    rows = _stance.features(["Fails: too dear", "", "fails TOO dear!"], 64)
    assert rows.shape == (3, 64)
    assert float(rows[0] @ rows[0]) == pytest.approx(1.0)
    assert not rows[1].any()
    assert np.array_equal(rows[0], rows[2])  # case and punctuation are not words
    # 3 words and 2 pairs: at most 5 buckets set, each 1/sqrt(set)
    assert 1 <= int((rows[0] > 0).sum()) <= 5


def test_a_plain_pass_in_the_writers_own_words_is_read_proceed():
    label, p = _read(CLEAR_PASS)
    assert label == "PROCEED" and p >= _head()["threshold"]


def test_a_fail_and_an_unknown_lean_their_way_but_stay_under_the_threshold():
    # the top class is the right one, its probability is not high enough to read: the reader abstains
    assert _top(LEANS_REJECT) == "REJECT"
    assert _top(LEANS_UNKNOWN) == "INCONCLUSIVE"
    assert _read(LEANS_REJECT)[0] is None
    assert _read(LEANS_UNKNOWN)[0] is None


def test_decide_abstains_on_none_and_under_the_threshold():
    head = {"classes": ["NONE", "PROCEED", "REJECT"], "coef": np.zeros((3, 2)), "intercept": np.array([0.0, 0.0, 0.0]),
            "threshold": 0.5}
    # equal logits: 1/3 each, under 0.5
    assert _stance.decide(head, np.array([[1.0, 0.0]])) == [(None, pytest.approx(1 / 3))]
    head["intercept"] = np.array([5.0, 0.0, 0.0])  # NONE on top: no verdict
    assert _stance.decide(head, np.array([[1.0, 0.0]]))[0][0] is None
    head["intercept"] = np.array([0.0, 5.0, 0.0])  # PROCEED: e^5 / (e^5 + 2) = 0.98670
    label, p = _stance.decide(head, np.array([[1.0, 0.0]]))[0]
    assert label == "PROCEED" and p == pytest.approx(0.98670, abs=1e-5)


def _card():
    from ipb.engine.registry import compiled_card

    return compiled_card(CARD).card


def _trace(gate: int, verdict: str | None, span: tuple[int, int]) -> GateTrace:
    return GateTrace(gate, f"gate {gate}", verdict, span, span, "name", span if verdict else None, confidence=0.5)


def test_stance_reads_only_gates_the_rules_left_unread_and_never_overrides_them():
    text = CLEAR_PASS + "\n\n" + LEANS_REJECT + "\n\n" + CLEAR_PASS
    a, b = len(CLEAR_PASS), len(CLEAR_PASS) + 2 + len(LEANS_REJECT)
    gates = [_trace(1, None, (0, a)), _trace(2, None, (a + 2, b)), _trace(3, "REJECT", (b + 2, len(text)))]
    assert _stance.stance_gates(text, gates, _card()) == 1
    first, second, third = gates
    p = _read(CLEAR_PASS, _stance.name_words(_card()))[1]
    assert (first.verdict, first.how, first.verdict_span) == ("PROCEED", "name+stance", (0, a))
    assert first.confidence == round(p * _head()["confidence_scale"], 3) < 0.5
    assert (second.verdict, second.how) == (None, "name")  # leans REJECT, under the threshold: abstains
    assert (third.verdict, third.how, third.confidence) == ("REJECT", "name", 0.5)  # the rules' verdict stays


def test_the_reader_switched_off_reads_nothing():
    gates = [_trace(1, None, (0, len(CLEAR_PASS)))]
    _stance.STATE["enabled"] = False
    try:
        assert _stance.stance_gates(CLEAR_PASS, gates, _card()) == 0
    finally:
        _stance.STATE["enabled"] = True
    assert gates[0].verdict is None


def test_a_gate_is_not_read_by_how_often_a_gate_of_its_name_passes():
    # regression (stop 39, gate-name prior): "vale" is no word the reader knows; before the card's gate names were
    # left out of the features, "Economic Moat" alone made this section PROCEED at 0.94 or more
    words = _stance.name_words(_card())
    assert {"economic", "moat", "margin", "safety"} <= words and "vale" not in words
    text = "Gate 2 (Economic Moat): vale."
    gates = [_trace(2, None, (0, len(text)))]
    assert _stance.stance_gates(text, gates, _card()) == 0 and gates[0].verdict is None


def test_the_rules_only_parse_reads_no_stance():
    from ipb.scoring.parse import parse_response

    result = parse_response("Gate 3: " + CLEAR_PASS, CARD, embedder=False)
    assert all(not g.how.endswith("+stance") for g in result.gates)


_TINY = [
    ("passes easily, comfortably inside the bar", "PROCEED"), ("clears the hurdle with room to spare", "PROCEED"),
    ("well inside our limit, fine", "PROCEED"), ("fails, far above the limit", "REJECT"),
    ("misses the bar by a mile", "REJECT"), ("too expensive, ruled out", "REJECT"),
    ("no data yet, cannot tell", "INCONCLUSIVE"), ("unknown until the filing arrives", "INCONCLUSIVE"),
    ("cannot judge without the accounts", "INCONCLUSIVE"),
]


def test_training_is_deterministic_on_a_tiny_fixture():
    bench = load_bench("train_stance.py")
    classes = ["INCONCLUSIVE", "NONE", "PROCEED", "REJECT"]
    texts, labels = [t for t, _ in _TINY], [y for _, y in _TINY]

    def once() -> str:
        rows = _stance.features(texts, 256)
        coef, intercept = bench.fit(rows, labels, classes)
        return bench.weights_text({"gate": bench.head_json(coef, intercept, classes, 0.5)}, 256)

    first, second = once(), once()
    assert first == second
    # the fitted weights read their own training texts back, and NONE (absent from the fixture) never wins
    head = {"classes": classes, "coef": np.zeros(1), "intercept": np.zeros(1), "threshold": 0.0}
    import json

    loaded = json.loads(first)["heads"]["gate"]
    head["coef"], head["intercept"] = np.asarray(loaded["coef"]), np.asarray(loaded["intercept"])
    read = [label for label, _ in _stance.decide(head, _stance.features(texts, 256))]
    assert read == labels


def test_the_closing_of_an_answer_is_its_last_paragraphs():
    bench = load_bench("train_stance.py")
    # a short close takes the paragraph before it along (together under 240 characters)
    assert bench.closing_text("Gate 1 passes.\n\nAll told, we buy.") == ("Gate 1 passes.\n\nAll told, we buy.", (0, 33))
    long = "All told, we buy. " * 14  # 252 characters: enough alone
    assert bench.closing_text("Gate 1 passes.\n\n" + long + "\n") == (long.strip(), (16, 16 + 251))
    assert bench.closing_text(" \n ") is None
