"""The s54break findings 1-5: deep JSON in three more readers, lm-eval-task over its own items, the LLM extractor's
final verdict outside the card's outcome words.

Items 1-3: an lm-eval ``results_*.json``, ``ipb report``'s ``summary.json`` and a line of its ``--items``, and an LLM
extractor's reply were read by ``json.loads`` with no depth limit, and ``[[[...]]]`` 1,100 deep (or more) overflowed
Python's stack (a RecursionError traceback). Each now goes through the one bounded reader of whole JSON documents
(:func:`ipb.engine._json.json_document`) or of JSON Lines records (:func:`ipb.engine._json.parse_json_line`), and says
"JSON nested deeper than 100 levels" naming the file and line. Item 4: ``ipb lm-eval-task D/ipb_l7.jsonl --out D``
replaced the items with the task's documents (exit 0). Item 5: the extractor's "INV\u0415ST" (a Cyrillic Ie) was
scored as written.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from typer.testing import CliRunner

from ipb.cli import app
from ipb.engine.registry import compiled_card
from ipb.errors import LoadError
from ipb.report.data import _read_json
from ipb.report.drilldown import _golds
from ipb.respond.extract import ExtractorConfig, LLMExtractor, _reading, _to_parsed
from ipb.scoring import adapters
from ipb.scoring.parse import ParsedResponse

ROOT = Path(__file__).resolve().parents[1]
ITEM = ROOT / "tests" / "robustness" / "data" / "item_l7.jsonl"
STAMP = "2026-12-06T10-00-00.000000"
DEEP = "[" * 1100 + "]" * 1100  # past the standard library's recursion limit (about 1,000)
SAYS = "JSON nested deeper than 100 levels; ipb reads at most 100"
runner = CliRunner()


def _samples(folder: Path, results: str) -> Path:
    samples = folder / f"samples_ipb_l7_{STAMP}.jsonl"
    samples.write_text('{"doc_id": 0, "doc": {"item_id": "A"}, "resps": [["Gate 1: PROCEED"]]}\n', encoding="utf-8")
    (folder / f"results_{STAMP}.json").write_text(results, encoding="utf-8")
    return samples


# --------------------------------------------------------------------------- item 1: lm-eval results_*.json

def test_a_deep_lm_eval_results_file_is_refused_by_name_and_line(tmp_path: Path) -> None:
    samples = _samples(tmp_path, "\n" + DEEP)  # the deep run opens on line 2; bracket 101 is at column 101
    with pytest.raises(LoadError) as caught:
        list(adapters.read_lm_eval(samples))
    err = caught.value
    assert SAYS in err.message and err.file == str(tmp_path / f"results_{STAMP}.json")
    assert (err.line, err.column) == (2, 101)
    assert "--model" in err.message  # the way round it


def test_with_model_given_the_results_file_is_not_read(tmp_path: Path) -> None:
    records = list(adapters.read_lm_eval(_samples(tmp_path, DEEP), model="m1"))
    assert [r.data["model"] for r in records] == ["m1"]


def test_a_results_file_past_the_size_limit_is_refused_unread(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(adapters, "MAX_RECORD_BYTES", 64)  # 64 bytes stands for the 64 MiB limit
    samples = _samples(tmp_path, '{"config": {"model": "hf"}, "pad": "' + "x" * 100 + '"}')
    with pytest.raises(LoadError, match="larger than 0 MiB"):
        list(adapters.read_lm_eval(samples))


def test_a_plain_results_file_still_names_the_model(tmp_path: Path) -> None:
    samples = _samples(tmp_path, '{"config": {"model": "hf", "model_args": "pretrained=org/m7"}}')
    assert [r.data["model"] for r in adapters.read_lm_eval(samples)] == ["hf/org/m7"]


# --------------------------------------------------------------------------- item 2: ipb report

def _results(folder: Path, summary: str) -> Path:
    folder.mkdir()
    (folder / "summary.json").write_text(summary, encoding="utf-8")
    (folder / "responses.jsonl").write_text('{"id": "r1"}\n', encoding="utf-8")
    return folder


def test_a_deep_summary_is_refused_at_the_bracket(tmp_path: Path) -> None:
    folder = _results(tmp_path / "res", '{"a":\n' + "[" * 5000 + "]" * 5000 + "}")
    with pytest.raises(LoadError) as caught:
        _read_json(folder / "summary.json")
    # the "{" on line 1 is level 1, so level 101 is the 100th "[" of line 2: column 100
    assert SAYS in caught.value.message and (caught.value.line, caught.value.column) == (2, 100)


def test_the_report_command_says_so_without_a_traceback(tmp_path: Path) -> None:
    folder = _results(tmp_path / "res", '{"a": ' + "[" * 5000 + "]" * 5000 + "}")
    result = runner.invoke(app, ["report", str(folder), "-o", str(tmp_path / "page.html")])
    assert result.exit_code == 1 and "nested deeper than 100 levels" in result.output
    assert "summary.json" in result.output and result.exception is None or isinstance(result.exception, SystemExit)
    assert not (tmp_path / "page.html").exists()


def test_a_deep_items_line_is_skipped_with_a_note(tmp_path: Path) -> None:
    items = tmp_path / "items.jsonl"
    good = ITEM.read_text(encoding="utf-8").strip()
    items.write_text(good + "\n" + '{"id": "x", "a": ' + "[" * 5000 + "]" * 5000 + "}\n", encoding="utf-8")
    notes: list[str] = []
    golds = _golds(items, notes)
    assert list(golds) == [json.loads(good)["id"]]  # the good line is still read
    assert len(notes) == 1 and f"{items}:2:" in notes[0] and "nested deeper than 100 levels" in notes[0]


# --------------------------------------------------------------------------- item 3: the LLM extractor's reply

def test_a_deep_reply_is_unreadable_not_a_crash() -> None:
    with pytest.raises(ValueError, match="nested deeper than 100 levels"):
        _reading("[" * 50_000 + "]" * 50_000)


class _Reply:
    """A chat client that answers every request with one text (no server: the extractor only calls ``complete``)."""

    secrets: dict[str, str] = {}  # no API key to scrub

    def __init__(self, text: str) -> None:
        self.text = text

    def complete(self, *args: Any, **kwargs: Any) -> Any:
        return SimpleNamespace(text=self.text, finish_reason="stop", usage={}, latency_s=0.0)


def test_a_deep_reply_is_a_failed_extraction() -> None:
    extractor = LLMExtractor(ExtractorConfig(model="m", base_url="http://127.0.0.1:9/v1"),
                             client=_Reply("[" * 50_000 + "]" * 50_000), cache=None)
    parsed = extractor("Gate 1: PROCEED\nFinal verdict: INVEST", "graham_net_net_screen")
    assert parsed.status == "parse_failure"
    assert parsed.reason.startswith("llm extractor: unreadable reply: ") and SAYS in parsed.reason


# --------------------------------------------------------------------------- item 4: lm-eval-task over its items

def test_lm_eval_task_refuses_to_write_over_its_items(tmp_path: Path) -> None:
    folder = tmp_path / "D"
    folder.mkdir()
    items = folder / "ipb_l7.jsonl"  # the name the task's own documents take for L7 items
    shutil.copyfile(ITEM, items)
    shutil.copytree(ITEM.parent / "ipb-cards", folder / "ipb-cards")
    before = items.read_bytes()
    result = runner.invoke(app, ["lm-eval-task", str(items), "--out", str(folder)])
    assert result.exit_code == 1 and "is the items file" in result.output
    assert items.read_bytes() == before and not (folder / "ipb_l7.yaml").exists()


def test_lm_eval_task_refuses_an_out_that_is_a_file(tmp_path: Path) -> None:
    target = tmp_path / "taken.txt"
    target.write_text("keep\n", encoding="utf-8")
    result = runner.invoke(app, ["lm-eval-task", str(ITEM), "--out", str(target)])
    assert result.exit_code == 1 and "is a file" in result.output and "Traceback" not in result.output
    assert not isinstance(result.exception, FileExistsError) and target.read_text(encoding="utf-8") == "keep\n"


def test_lm_eval_task_still_writes_a_new_folder(tmp_path: Path) -> None:
    result = runner.invoke(app, ["lm-eval-task", str(ITEM), "--out", str(tmp_path / "task")])
    assert result.exit_code == 0, result.output
    assert {"ipb_l7.jsonl", "ipb_l7.yaml", "ipb_hooks.py"} <= {p.name for p in (tmp_path / "task").iterdir()}


# --------------------------------------------------------------------------- item 5: the extractor's final verdict

CARD = compiled_card("graham_net_net_screen").card
TEXT = "Gate 1: PROCEED\nFinal verdict: INVEST"


def _final(word: str) -> ParsedResponse:
    reading = {"gates": [{"gate": 1, "verdict": "PROCEED", "quote": "Gate 1: PROCEED"}], "final_verdict": word,
               "final_quote": "Final verdict: INVEST", "invented_gates": []}
    return _to_parsed(ParsedResponse(status="ok", card_id=CARD.id), reading, TEXT, CARD, "m")


@pytest.mark.parametrize("word", ["INV\u0415ST", "inv\u0435st", "\uff29\uff2e\uff36\uff25\uff33\uff34", "Invest"])
def test_a_look_alike_final_verdict_is_folded_to_the_outcome_word(word: str) -> None:
    # Cyrillic Ie (upper, lower), full-width INVEST, sentence case: all the card's INVEST, as the rules parser reads them
    parsed = _final(word)
    assert parsed.final_verdict == "INVEST" and parsed.final_verdict_span == (16, 37)


@pytest.mark.parametrize("word", ["BANANA", "INV\u0416ST", "N/A"])
def test_a_final_verdict_that_is_no_outcome_word_is_not_scored(word: str) -> None:
    parsed = _final(word)  # "\u0416" (Zhe) passes for no Latin letter: the word stays foreign
    assert parsed.final_verdict is None and parsed.final_confidence == 0.0
    assert any("none of the card's outcome words" in n for n in parsed.notes)
