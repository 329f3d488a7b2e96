"""Every command that writes a file refuses an output path that is one of its own inputs (s52break item 7).

``ipb graph c.yaml -f svg --out c.yaml`` replaced the card with its picture, ``ipb screen c.yaml t.csv --out
t.csv --only-results`` replaced the table with the verdicts, and ``records score``, ``forecast score`` and
``depgraph run`` wrote their JSON over the file they read, all with exit 0. Each now exits 1 with a message naming
both paths, and the input is left byte for byte as it was. One helper, :func:`ipb._files.refuse_overwriting`,
decides what "the same file" means (a symlink or a hard link to the input counts).
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Callable

import pytest
from typer.testing import CliRunner

from ipb._files import refuse_overwriting
from ipb.cli import app
from ipb.errors import WriteError

ROOT = Path(__file__).resolve().parents[1]
FIX = ROOT / "tests" / "fixtures" / "issue8"
CARD = ROOT / "frameworks" / "graham_seven_tests_defensive.yaml"
SCENARIO = next((ROOT / "frameworks" / "scenarios" / "graham_seven_tests_defensive").glob("*.yaml"))
runner = CliRunner()


def _copy(src: Path, folder: Path) -> Path:
    dst = folder / src.name
    shutil.copyfile(src, dst)
    return dst


def _table(folder: Path) -> Path:
    path = folder / "t.csv"
    path.write_text("annual_sales,price_per_share\n500000000,120\n", encoding="utf-8")
    return path


def _results(folder: Path) -> Path:
    results = folder / "results"
    results.mkdir()
    (results / "summary.json").write_text('{"version": 1}\n', encoding="utf-8")
    (results / "responses.jsonl").write_text('{"id": "r1"}\n', encoding="utf-8")
    return results


# Each case: (files it makes in tmp_path -> (arguments, the input the output names)).
Case = Callable[[Path], tuple[list[str], Path]]


def _graph_card(d: Path) -> tuple[list[str], Path]:
    card = _copy(CARD, d)
    return ["graph", str(card), "-f", "svg", "--out", str(card)], card


def _graph_scenario(d: Path) -> tuple[list[str], Path]:
    card, scen = _copy(CARD, d), _copy(SCENARIO, d)
    return ["graph", str(card), "--scenario", str(scen), "-f", "png", "--out", str(scen)], scen


def _screen_table(d: Path) -> tuple[list[str], Path]:
    table = _table(d)
    return ["screen", str(_copy(CARD, d)), str(table), "--out", str(table), "--only-results"], table


def _records_agent(d: Path) -> tuple[list[str], Path]:
    agent = _copy(FIX / "records" / "agent.jsonl", d)
    return ["records", "score", str(agent), "--expert", str(_copy(FIX / "records" / "cathie_wood.yaml", d)),
            "-o", str(agent)], agent


def _records_expert(d: Path) -> tuple[list[str], Path]:
    expert = _copy(FIX / "records" / "cathie_wood.yaml", d)
    return ["records", "score", str(_copy(FIX / "records" / "agent.jsonl", d)), "--expert", str(expert),
            "-o", str(expert)], expert


def _forecast_task(d: Path) -> tuple[list[str], Path]:
    task = _copy(FIX / "forecast" / "msft_task.yaml", d)
    return ["forecast", "score", str(task), str(_copy(FIX / "forecast" / "msft_submission.yaml", d)),
            "-o", str(task)], task


def _depgraph_graph(d: Path) -> tuple[list[str], Path]:
    graph = _copy(FIX / "depgraph" / "aep_funding.yaml", d)
    return ["depgraph", "run", str(graph), str(_copy(FIX / "depgraph" / "aep_answer.yaml", d)),
            "-o", str(graph)], graph


def _report_items(d: Path) -> tuple[list[str], Path]:
    items = d / "items.jsonl"
    items.write_text('{"id": "i1"}\n', encoding="utf-8")
    return ["report", str(_results(d)), "--items", str(items), "-o", str(items)], items


def _export_summary(d: Path) -> tuple[list[str], Path]:
    results = _results(d)
    return ["export", str(results), "-o", str(results / "summary.json"), "-f", "csv"], results / "summary.json"


CASES: dict[str, Case] = {
    "graph-card": _graph_card, "graph-scenario": _graph_scenario, "screen-table": _screen_table,
    "records-agent": _records_agent, "records-expert": _records_expert, "forecast-task": _forecast_task,
    "depgraph-graph": _depgraph_graph, "report-items": _report_items, "export-summary": _export_summary,
}


@pytest.mark.parametrize("via_link", [False, True], ids=["same-path", "symlink"])
@pytest.mark.parametrize("name", list(CASES))
def test_output_over_an_input_is_refused(tmp_path: Path, name: str, via_link: bool) -> None:
    args, victim = CASES[name](tmp_path)
    if via_link:  # --out names a link to the input: the link is resolved, so it is the same file
        link = tmp_path / f"link{victim.suffix}"
        link.symlink_to(victim)
        args = [str(link) if a == str(victim) and i > 0 and args[i - 1] in ("--out", "-o") else a
                for i, a in enumerate(args)]
    before = victim.read_bytes()
    listing = sorted(p.name for p in tmp_path.rglob("*"))
    result = runner.invoke(app, args)
    assert result.exit_code == 1, result.output
    text = " ".join(result.output.split())
    assert "never writes over" in text and "Traceback" not in result.output
    assert text.count(victim.name) >= (1 if via_link else 2)  # both paths are named
    assert victim.read_bytes() == before
    assert sorted(p.name for p in tmp_path.rglob("*")) == listing  # nothing written, no temporary left


def test_helper_same_file_rules(tmp_path: Path) -> None:
    card = tmp_path / "c.yaml"
    card.write_text("x: 1\n", encoding="utf-8")
    os.link(card, tmp_path / "hard.yaml")
    with pytest.raises(WriteError, match=r"--out .*hard\.yaml is the card file .*c\.yaml"):
        refuse_overwriting({"--out": tmp_path / "hard.yaml"}, {"card file": card}, command="graph")
    with pytest.raises(WriteError, match="is the card file"):  # a relative spelling of the same path
        refuse_overwriting({"--out": tmp_path / "sub" / ".." / "c.yaml"}, {"card file": card}, command="graph")
    # Two outputs not yet written that name one path.
    with pytest.raises(WriteError, match=r"--report .*r\.txt is the --out file"):
        refuse_overwriting({"--out": tmp_path / "r.txt", "--report": tmp_path / "r.txt"}, {}, command="perturb")
    # Not the same: another file, a missing input (its loader says so), None, a card id that is no file.
    refuse_overwriting({"--out": tmp_path / "o.svg", "--report": None},
                       {"card file": card, "scenario": None, "facts": tmp_path / "missing.yaml"}, command="graph")
    refuse_overwriting({"--out": Path("graham_seven_tests_defensive")},
                       {"card file": Path("graham_seven_tests_defensive")}, command="graph")
