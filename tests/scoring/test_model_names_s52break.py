"""Model names that print alike, a null response and records naming no model, end to end (s52break item 8 and
its two small findings)."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

from ipb.cli import app
from ipb.respond.synthetic import bundled_items
from ipb.scoring.model_names import model_name_warnings, skeleton

ROOT = Path(__file__).resolve().parents[2]
runner = CliRunner()
ANSWER = "Gate 1: PROCEED\nFinal verdict: INVEST"


def _run(tmp_path: Path, rows: list[dict]) -> tuple[object, dict, list[dict]]:
    items = bundled_items(["buffett_acquisition_checklist"])[:1]
    (tmp_path / "items.jsonl").write_text(json.dumps(items[0]) + "\n", encoding="utf-8")
    lines = [json.dumps({"item_id": items[0]["id"], "condition": "A", **r}, ensure_ascii=False) for r in rows]
    (tmp_path / "r.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = runner.invoke(app, ["score", "--items", str(tmp_path / "items.jsonl"), "--responses",
                                 str(tmp_path / "r.jsonl"), "--out", str(tmp_path / "out"), "--no-embeddings",
                                 "--resamples", "50"])
    summary = json.loads((tmp_path / "out" / "summary.json").read_text(encoding="utf-8"))
    records = [json.loads(x) for x in (tmp_path / "out" / "responses.jsonl").read_text(encoding="utf-8").splitlines()]
    for name, doc in (("summary", summary), *(("score_record", r) for r in records)):
        schema = json.loads((ROOT / "grammar" / f"{name}.schema.json").read_text(encoding="utf-8"))
        jsonschema.Draft202012Validator(schema).validate(doc)
    return result, summary, records


def test_spaces_are_stripped_and_look_alikes_are_kept_apart_but_named(tmp_path: Path) -> None:
    result, summary, records = _run(tmp_path, [{"model": "gold", "response": ANSWER},
                                               {"model": "gold ", "response": ANSWER},
                                               {"model": "g\u043eld", "response": ANSWER}])
    assert result.exit_code == 0, result.output
    # "gold " joins "gold" (2 records); the Cyrillic one is its own row: 2 rows, not 3
    assert sorted(summary["groups"]["model"]) == ["gold", "g\u043eld"]
    assert summary["groups"]["model"]["gold"]["n"] == 2 and summary["groups"]["model"]["g\u043eld"]["n"] == 1
    assert records[1]["model"] == "gold" and records[1]["model_as_given"] == "gold "
    assert "model_as_given" not in records[0]
    stripped, alike = summary["model_name_warnings"]
    assert "1 record(s) had surrounding spaces" in stripped and "r.jsonl:2" in stripped
    assert "U+043E CYRILLIC SMALL LETTER O" in alike and "separate leaderboard rows" in alike
    text = " ".join(result.output.split())
    assert "warning: the model name of 1 record(s)" in text and "U+043E CYRILLIC SMALL LETTER O" in text


def test_null_response_and_unnamed_model_are_said_plainly(tmp_path: Path) -> None:
    result, summary, records = _run(tmp_path, [{"model": "m", "response": None}, {"model": "m"},
                                               {"model": "m", "response": ""}])
    assert records[0]["reason"] == "the record's 'response' is null, not text"
    assert records[1]["reason"] == "the record has no 'response'"
    assert "model_name_warnings" not in summary


def test_refusals_line_names_no_model_as_records_naming_none() -> None:
    from ipb.cli.commands.score import _unscored_by_model

    line = _unscored_by_model({"failures": {"policy": "count"}, "groups": {"model": {
        "(none)": {"n_refusals": 2, "n_parse_failures": 0}}}}, ["(none)"])
    assert line == ("refusals and parse failures by model (each in the means at 0): records naming no model: "
                    "2 refusal(s), 0 parse failure(s)")


@given(st.text(alphabet=st.characters(codec="ascii", categories=("Ll", "Lu", "Nd")), min_size=1, max_size=12))
def test_an_invisible_or_cyrillic_twin_has_the_same_skeleton(name: str) -> None:
    twin = name.replace("o", "\u043e").replace("a", "\u0430") + "\u200b"
    assert skeleton(twin) == skeleton(name)
    warnings = model_name_warnings([{"model": name}, {"model": twin}])
    assert len(warnings) == (1 if twin != name else 0)
    assert model_name_warnings([{"model": name}, {"model": name + "x"}]) == []
