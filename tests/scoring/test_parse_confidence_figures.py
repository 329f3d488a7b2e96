"""``bench/parse_accuracy.py --confidence`` (issue 13 item 3): coverage, accuracy, reliability and AUROC, worked by hand.

A reading is ``(confidence or None, right)``; a labelled gate the parser did not
find, or a parse failure, has no confidence and is never covered (review work).
The parser is stubbed: these tests pin the figures' definitions, not its readings.
"""

from __future__ import annotations

import json
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.scoring.bench_support import G, R, load_bench


def _figures() -> ModuleType:
    return load_bench("confidence_figures.py")


def _bench() -> ModuleType:
    return load_bench("parse_accuracy.py")


# five gate readings: right at 0.95 and 0.85, wrong at 0.85 and 0.4, and one gate never read
READINGS = [(0.95, True), (0.85, True), (0.85, False), (0.4, False), (None, False)]


def test_coverage_counts_unread_gates_and_accuracy_only_the_covered() -> None:
    rows = {r["threshold"]: r for r in _figures().operating_points(READINGS, [0.0, 0.5, 0.9, 0.99])}
    # T=0: 4 of 5 have a confidence (the unread one never does); 2 of those 4 right
    assert (rows[0.0]["covered"], rows[0.0]["coverage"], rows[0.0]["accuracy"]) == (4, 0.8, 0.5)
    # T=0.5: 0.95, 0.85, 0.85 -> 3 of 5, 2 of 3 right
    assert (rows[0.5]["covered"], rows[0.5]["coverage"], rows[0.5]["accuracy"]) == (3, 0.6, pytest.approx(2 / 3))
    # T=0.9: only 0.95 (at or above T counts), right
    assert (rows[0.9]["covered"], rows[0.9]["coverage"], rows[0.9]["accuracy"]) == (1, 0.2, 1.0)
    # nothing covered: accuracy is undefined, not 0 or 1
    assert (rows[0.99]["covered"], rows[0.99]["accuracy"]) == (0, None)
    assert _figures().operating_points([], [0.5])[0]["coverage"] is None


def test_reliability_bins_are_half_open_and_the_last_holds_one() -> None:
    rows = _figures().reliability(READINGS + [(1.0, True), (0.5, True)], [0.0, 0.5, 0.9, 1.0])
    got = [(r["n"], r["mean_confidence"], r["accuracy"]) for r in rows]
    # [0, 0.5): 0.4 wrong; [0.5, 0.9): 0.5 right, 0.85 right, 0.85 wrong; [0.9, 1.0]: 0.95 and 1.0, right
    assert got == [(1, 0.4, 0.0), (3, pytest.approx(2.2 / 3), pytest.approx(2 / 3)), (2, 0.975, 1.0)]


def test_auroc_by_hand() -> None:
    auroc = _figures().auroc
    # right {0.95, 0.85} vs wrong {0.85, 0.4}: pairs (0.95>0.85) 1, (0.95>0.4) 1, (0.85=0.85) 1/2, (0.85>0.4) 1
    assert auroc(READINGS) == pytest.approx(3.5 / 4)
    assert auroc([(0.2, True), (0.9, False)]) == 0.0  # confidence ranks wrong above right
    assert auroc([(0.5, True), (0.5, False)]) == 0.5  # a tie separates nothing
    assert auroc([(0.5, True), (None, False)]) is None  # an unread gate has no confidence to rank


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.one_of(st.none(), st.floats(0, 1)), st.booleans()), max_size=40))
def test_auroc_is_the_pairwise_share(readings: list[tuple[float | None, bool]]) -> None:
    """The rank-sum AUROC equals the O(n^2) count of right-above-wrong pairs (ties one half)."""
    right = [c for c, r in readings if c is not None and r]
    wrong = [c for c, r in readings if c is not None and not r]
    got = _figures().auroc(readings)
    if not right or not wrong:
        assert got is None
        return
    pairs = sum(1.0 if a > b else 0.5 if a == b else 0.0 for a in right for b in wrong)
    assert got == pytest.approx(pairs / (len(right) * len(wrong)))


def _case(case_id: str, gates: list[str], final: str | None) -> dict[str, Any]:
    return {"id": case_id, "split": "tuned", "card": "x", "text": "t", "phenomena": [],
            "expect": {"gates": gates, "final_verdict": final, "invented_gates": []}}


def test_score_case_records_each_labelled_verdict_with_its_confidence() -> None:
    case = _case("c-1", ["1 PROCEED", "2 REJECT", "3 -", "4 PROCEED"], "DECLINE")
    result = R(gates=[G(1, "PROCEED", confidence=0.95), G(2, "PROCEED", confidence=0.85), G(3, None, confidence=0.25)], final_verdict="DECLINE",
               final_confidence=0.85)
    _, record = _bench().score_case(case, lambda text, card, embedder: result, False)
    # gate 3 is labelled '-' (left out); gate 4 was never read: no confidence
    assert record["confidence_gates"] == [(0.95, True), (0.85, False), (None, False)]
    assert record["confidence_final"] == (0.85, True)
    _, failed = _bench().score_case(case, lambda text, card, embedder: R(status="parse_failure", reason="no gate"), False)
    assert failed["confidence_gates"] == [(None, False)] * 3 and failed["confidence_final"] == (None, False)


def test_confidence_table_per_split_and_prefix(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    bench = _bench()
    ids = [next(f"{p}{k}" for k in range(100) if bench.split_of(f"{p}{k}") == "tuned") for p in ("a-", "b-")]
    (tmp_path / "c.yaml").write_text("".join(
        f"- {{id: {i}, split: tuned, card: x, text: '{i}', expect: {{gates: ['1 PROCEED', '2 PROCEED'], "
        "final_verdict: INVEST, invented_gates: []}}\n" for i in ids), encoding="utf-8")

    def stub(text: str, card: str, embedder: object) -> R:
        if text.startswith("a-"):  # both gates right, at 0.95 and 0.65; final right at 0.85
            return R(gates=[G(1, "PROCEED", confidence=0.95), G(2, "PROCEED", confidence=0.65)], final_verdict="INVEST", final_confidence=0.85)
        return R(gates=[G(1, "REJECT", confidence=0.85)], final_verdict=None, final_confidence=0.0)  # gate 2 unread, final missed

    monkeypatch.setattr(bench, "_parser", lambda: stub)
    out = tmp_path / "out.json"
    assert bench.main(["--corpus", str(tmp_path), "--embedder", "off", "--ids", "a-", "--ids", "b-", "--confidence",
                       "--json", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "tuned: 4 labelled gate verdicts, 2 final verdicts; AUROC gates 0.500, final 1.000" in printed
    # gates: right {0.95, 0.65} vs wrong {0.85}: 1 of 2 pairs -> 0.5; at T=0.8: 0.95 and 0.85 of 4 -> 50%, 1 of 2 right
    line = next(ln for ln in printed.splitlines() if ln.strip().startswith("0.80"))
    assert line.split() == ["0.80", "50.0%", "50.0%", "50.0%", "100.0%"]
    assert "tuned a-*: 2 labelled gate verdicts" in printed and "tuned b-*: 2 labelled gate verdicts" in printed
    data = json.loads(out.read_text(encoding="utf-8"))["configurations"]["embedder_off"]["confidence"]
    assert data["tuned b-*"]["gates"]["operating_points"][0]["coverage"] == 0.5  # the unread gate 2: not covered
    assert data["tuned"]["final"]["auroc"] == 1.0
