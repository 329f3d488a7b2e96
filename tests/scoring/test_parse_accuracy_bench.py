"""The figures of ``bench/parse_accuracy.py``, worked by hand on stub parser outputs.

The real parser is never called here (its accuracy is what the bench reports and is
being reworked elsewhere); a stub returns fixed readings so that each figure's
definition is pinned: '-' labels leave the verdict count, a parse failure counts as
wrong everywhere, a null final label is right only against no final verdict,
invented-gate labels match by containment.
"""

from __future__ import annotations

from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from tests.scoring.bench_support import G, R, load_bench


def _bench() -> ModuleType:
    return load_bench("parse_accuracy.py")


def _case(gates: list[str], final: str | None, invented: list[str] | None = None,
          elements: dict[int, list[str]] | None = None, case_id: str = "c-1") -> dict[str, Any]:
    expect: dict[str, Any] = {"gates": gates, "final_verdict": final, "invented_gates": invented or [],
                              "failure_modes": []}
    if elements:
        expect["elements"] = elements
    return {"id": case_id, "split": "tuned", "card": "x", "text": "t", "phenomena": [], "expect": expect}


def _score(case: dict[str, Any], result: R) -> dict[str, Any]:
    tally, _ = _bench().score_case(case, lambda text, card, embedder: result, False)
    return tally.figures()


def test_perfect_reading() -> None:
    f = _score(_case(["1 PROCEED", "2 -", "3 REJECT"], "DECLINE"),
               R(gates=[G(1, "PROCEED"), G(2, None), G(3, "REJECT")], final_verdict="DECLINE"))
    assert f["gate_verdicts"] == 2  # gate 2 is labelled '-' and left out
    assert f["gate_verdict_accuracy"] == 1.0
    assert (f["gate_detection_precision"], f["gate_detection_recall"]) == (1.0, 1.0)
    assert f["order_agreement"] == 1.0 and f["final_verdict_accuracy"] == 1.0
    assert f["invented_gate_false_positive_rate"] == 0.0


def test_missing_extra_and_reordered_gates() -> None:
    # labelled 1,2,3 with verdicts; parsed 3,1,4: gate 2 missed, gate 4 extra, order differs
    f = _score(_case(["1 PROCEED", "2 PROCEED", "3 REJECT"], "DECLINE"),
               R(gates=[G(3, "REJECT"), G(1, "REJECT"), G(4, "PROCEED")], final_verdict="DECLINE"))
    assert f["gate_verdict_accuracy"] == pytest.approx(1 / 3)  # only gate 3 right
    assert f["gate_detection_precision"] == pytest.approx(2 / 3)  # 1 and 3 of 3 parsed
    assert f["gate_detection_recall"] == pytest.approx(2 / 3)  # 1 and 3 of 3 labelled
    assert f["order_agreement"] == 0.0


def test_null_final_label_needs_no_parsed_verdict() -> None:
    case = _case(["1 REJECT"], None)
    assert _score(case, R(gates=[G(1, "REJECT")], final_verdict=None))["final_verdict_accuracy"] == 1.0
    assert _score(case, R(gates=[G(1, "REJECT")], final_verdict="DECLINE"))["final_verdict_accuracy"] == 0.0


def test_parse_failure_counts_as_wrong() -> None:
    f = _score(_case(["1 PROCEED", "2 REJECT"], "DECLINE", elements={1: ["e"]}),
               R(status="parse_failure", reason="no gate recognised"))
    assert f["parse_failures"] == 1
    assert f["gate_verdict_accuracy"] == 0.0 and f["gate_verdicts"] == 2
    assert f["gate_detection_recall"] == 0.0 and f["gate_detection_precision"] is None
    assert f["final_verdict_accuracy"] == 0.0 and f["order_agreement"] == 0.0
    assert f["element_recall"] == 0.0


def test_invented_gate_labels_match_by_containment() -> None:
    case = _case(["1 PROCEED"], "INVEST", invented=["Financial strength"])
    labelled = R(gates=[G(1, "PROCEED")], final_verdict="INVEST", invented_gates=["Step 3 - Financial Strength"])
    other = R(gates=[G(1, "PROCEED")], final_verdict="INVEST", invented_gates=["Overview"])
    assert _score(case, labelled)["invented_gate_false_positive_rate"] == 0.0
    assert _score(case, other)["invented_gate_false_positive_rate"] == 1.0


def test_element_recall_per_gate() -> None:
    case = _case(["1 PROCEED", "2 PROCEED"], "INVEST", elements={1: ["a", "b"], 2: ["c"]})
    result = R(gates=[G(1, "PROCEED", ["a"]), G(2, "PROCEED", ["a", "c"])], final_verdict="INVEST")
    f = _score(case, result)
    assert (f["element_recall"], f["elements"]) == (pytest.approx(2 / 3), 3)


def test_element_labels_are_templates_read_back_filled() -> None:
    # labels are the card's required_elements verbatim; the parser reports them rendered with the value it read
    case = _case(["1 PROCEED", "2 REJECT"], "DECLINE",
                 elements={1: ["current ratio {cr} (at least 2)", "debt {d} vs assets {a}"], 2: ["P/E {pe} on average"]})
    result = R(gates=[G(1, "PROCEED", ["current ratio 1.3 (at least 2)", "debt $4B vs assets"]),
                      G(2, "REJECT", ["P/E 22x on normal earnings"])], final_verdict="DECLINE")
    f = _score(case, result)
    # only the first: the second lacks its last field's value, the third's words differ
    assert (f["element_recall"], f["elements"]) == (pytest.approx(1 / 3), 3)


@pytest.mark.parametrize("label, reading, found", [
    ("P/B {pb} (max 1.5)", "P/B 1.2x (max 1.5)", True),
    ("P/B {pb} (max 1.5)", "P/B (max 1.5)", False),   # a field needs a value
    ("P/B {pb} (max 1.5)", "P/B 1.2x (max 2)", False),  # the literal text must agree
    ("{n} of 4 covered", "3 of 4 covered", True),
    ("plain words", "plain words", True),
    ("plain words", "plain words too", False),
])
def test_element_found(label: str, reading: str, found: bool) -> None:
    assert _bench().element_found(label, {reading}) is found


@pytest.mark.parametrize("case_id, split", [("x-1", "heldout"), ("x-2", "tuned"), ("a", "tuned")])
def test_split_rule(case_id: str, split: str) -> None:
    # the same hand-worked sha256 values as tests/scoring/test_corpus.py
    assert _bench().split_of(case_id) == split


def test_load_corpus_rejects_a_wrong_split(tmp_path: Path) -> None:
    (tmp_path / "c.yaml").write_text("- {id: x-1, split: tuned, card: c, text: t, expect: {}}\n", encoding="utf-8")
    with pytest.raises(SystemExit, match="x-1"):
        _bench().load_corpus(tmp_path)


def test_both_configurations_are_reported_and_labelled(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    """The default run measures what users get (embedder on, ``embedder=None``) beside embedder off, each labelled."""
    bench = _bench()
    case_id = next(f"c-{k}" for k in range(100) if bench.split_of(f"c-{k}") == "tuned")
    (tmp_path / "c.yaml").write_text(
        f"- {{id: {case_id}, split: tuned, card: x, text: t, expect: {{gates: ['1 PROCEED'], final_verdict: INVEST, "
        "invented_gates: []}}\n", encoding="utf-8")
    seen: list[object] = []

    def stub(text: str, card: str, embedder: object) -> R:
        seen.append(embedder)
        # on: the gate and the final verdict read right; off: the final verdict missed
        return R(gates=[G(1, "PROCEED")], final_verdict="INVEST" if embedder is None else None)

    monkeypatch.setattr(bench, "_parser", lambda: stub)
    monkeypatch.setattr(bench, "_embedder_missing", lambda: None)
    out = tmp_path / "out.json"
    assert bench.main(["--corpus", str(tmp_path), "--split", "tuned", "--json", str(out)]) == 0
    assert seen == [None, False]
    printed = capsys.readouterr().out
    assert "== embedder on (the default of ipb parse / ipb score; issue 13's bar)" in printed
    assert "== embedder off (--no-embed: rules only)" in printed
    import json

    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["default_configuration"] == "embedder_on"
    finals = {k: v["splits"]["tuned"]["final_verdict_accuracy"] for k, v in data["configurations"].items()}
    assert finals == {"embedder_on": 1.0, "embedder_off": 0.0}
    seen.clear()
    assert bench.main(["--corpus", str(tmp_path), "--split", "tuned", "--embedder", "off"]) == 0
    assert seen == [False]
    seen.clear()
    assert bench.main(["--corpus", str(tmp_path), "--split", "tuned", "--embedder"]) == 0
    assert seen == [None]


def test_an_unavailable_embedder_is_said_not_measured(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    bench = _bench()
    case_id = next(f"c-{k}" for k in range(100) if bench.split_of(f"c-{k}") == "tuned")
    (tmp_path / "c.yaml").write_text(f"- {{id: {case_id}, split: tuned, card: x, text: t, expect: {{gates: [], final_verdict: null}}}}\n",
                                     encoding="utf-8")
    monkeypatch.setattr(bench, "_parser", lambda: (lambda text, card, embedder: R(final_verdict=None)))
    monkeypatch.setattr(bench, "_embedder_missing", lambda: "ImportError: no sentence_transformers")
    assert bench.main(["--corpus", str(tmp_path), "--split", "tuned"]) == 0
    captured = capsys.readouterr()
    assert "'embedder on' is not measured" in captured.err and "== embedder on" not in captured.out
    assert "== embedder off" in captured.out
    assert bench.main(["--corpus", str(tmp_path), "--split", "tuned", "--embedder", "on"]) == 1


def test_ids_selects_one_batch_by_prefix(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    """``--ids n25-`` measures one blind batch alone: only its answers reach the parser."""
    bench = _bench()
    tuned = [f"{p}{k}" for p in ("n25-a", "old-a") for k in range(100) if bench.split_of(f"{p}{k}") == "tuned"]
    ids = [next(i for i in tuned if i.startswith("n25-")), next(i for i in tuned if i.startswith("old-"))]
    (tmp_path / "c.yaml").write_text("".join(
        f"- {{id: {i}, split: tuned, card: x, text: '{i}', expect: {{gates: [], final_verdict: null}}}}\n" for i in ids),
        encoding="utf-8")
    read: list[str] = []
    monkeypatch.setattr(bench, "_parser", lambda: (lambda text, card, embedder: read.append(text) or R(final_verdict=None)))
    assert bench.main(["--corpus", str(tmp_path), "--embedder", "off", "--ids", "n25-"]) == 0
    assert read == [ids[0]]
    assert "on 1 corpus answers" in capsys.readouterr().out
    assert bench.main(["--corpus", str(tmp_path), "--embedder", "off", "--ids", "zz-"]) == 1
    assert "ids starting zz-" in capsys.readouterr().err
