"""ipb export: one row per response x target, and the summary's means recomputed from the table."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ipb.cli import app
from ipb.errors import LoadError
from ipb.scoring.export import BASE_COLUMNS, export_rows

ROOT = Path(__file__).resolve().parents[2]
runner = CliRunner()


@pytest.fixture(scope="module")
def results(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A small scored run: L7 items of two cards and an L8 item, answered by synthetic respondents."""
    tmp = tmp_path_factory.mktemp("export")
    result = runner.invoke(app, ["respond", "--synthetic", "--bundled", "--out", str(tmp / "responses.jsonl"),
                                 "--corruptions", "none,drop_gate,flip_final"])
    assert result.exit_code == 0, result.output
    items = next(p for p in tmp.glob("*.jsonl") if p.name != "responses.jsonl")
    first = json.loads(items.read_text(encoding="utf-8").splitlines()[0])["id"]
    with (tmp / "responses.jsonl").open("a", encoding="utf-8") as handle:  # failures must be in the table too
        for n, text in enumerate(["I cannot help with that.", ""]):
            handle.write(json.dumps({"item_id": first, "model": f"refuser-{n}", "condition": "A", "response": text}) + "\n")
    result = runner.invoke(app, ["score", "--items", str(items), "--responses", str(tmp / "responses.jsonl"),
                                 "--out", str(tmp / "results"), "--no-embeddings", "--no-progress",
                                 "--resamples", "100"])
    assert result.exit_code == 0, result.output
    return tmp / "results"


def _groups(rows, dim, level):
    out: dict[str, list[dict]] = {}
    for row in rows:
        if level == "response" and row["target_index"] != 0:
            continue
        if level == "target" and row["card"] is None:
            continue
        key = "all" if dim == "overall" else row["condition_key" if dim == "condition" else dim]
        if key is not None:
            out.setdefault(key, []).append(row)
    return out


@pytest.mark.parametrize("fmt", ["parquet", "csv"])
def test_every_mean_in_the_summary_is_recomputed_from_the_table(results, tmp_path, fmt):
    pd = pytest.importorskip("pandas")
    if fmt == "parquet":
        pytest.importorskip("pyarrow", reason="pip install 'ipb[export]'")
    out = tmp_path / f"table.{fmt}"
    result = runner.invoke(app, ["export", str(results), "--format", fmt, "--out", str(out)])
    assert result.exit_code == 0, result.output
    frame = pd.read_parquet(out) if fmt == "parquet" else pd.read_csv(out, keep_default_na=True)
    rows = [{k: (None if pd.isna(v) else v) for k, v in r.items()} for r in frame.to_dict("records")]
    summary = json.loads((results / "summary.json").read_text(encoding="utf-8"))
    if summary["options"].get("failures") == "exclude":
        rows = [r for r in rows if r["status"] == "scored"]
    assert any(r["counted_failure"] for r in rows)  # the refusal and the empty answer are in the table, counted
    checked = 0
    for dim, groups in summary["groups"].items():
        if dim == "corruption":
            continue
        level = "target" if dim in ("investor", "topology", "card") else "response"
        prefix = "target." if level == "target" else "metric."
        table = _groups(rows, dim, level)
        for key, group in groups.items():
            members = table[key]
            assert len(members) == group["n"], (dim, key)
            for metric, stat in group["metrics"].items():
                if stat is None or stat.get("mean") is None:
                    continue
                values = [float(r[prefix + metric]) for r in members if r.get(prefix + metric) is not None]
                assert len(values) == stat["n"], (dim, key, metric)
                assert sum(values) / len(values) == pytest.approx(stat["mean"], abs=5e-7), (dim, key, metric)
                checked += 1
    assert checked > 100


def test_rows_keep_failures_and_name_their_reason(results):
    rows = export_rows(results)
    assert list(rows[0])[: len(BASE_COLUMNS)] == list(BASE_COLUMNS) or set(BASE_COLUMNS) <= set(rows[0])
    failed = [r for r in rows if r["status"] != "scored"]
    assert failed and all(r["reason_code"] for r in failed)
    scored = [r for r in rows if r["status"] == "scored" and r["target_index"] == 0]
    assert all(isinstance(r["metric.verdict_acc"], float) for r in scored)


def test_a_folder_without_results_is_a_located_error(tmp_path):
    with pytest.raises(LoadError, match="no responses.jsonl"):
        export_rows(tmp_path)
    (tmp_path / "responses.jsonl").write_text('{"kind": "ipb.score.response"}\nnot json\n', encoding="utf-8")
    with pytest.raises(LoadError) as info:
        export_rows(tmp_path)
    assert info.value.line == 2
    result = runner.invoke(app, ["export", str(tmp_path), "--out", str(tmp_path / "t.csv"), "--format", "csv"])
    assert result.exit_code == 1 and "responses.jsonl:2" in result.output and "Traceback" not in result.output


def test_csv_cells_that_a_spreadsheet_would_run_are_quoted(tmp_path):
    """A model name starting with '=' or '+' is data: the CSV cell starts with a quote, the numbers stay numbers."""
    import csv

    from ipb.scoring.export import _cell

    assert _cell('=HYPERLINK("http://x","y")') == '\'=HYPERLINK("http://x","y")'
    assert _cell("+cmd|' /C calc'!A0") == "'+cmd|' /C calc'!A0"
    assert _cell("@SUM(A1)") == "'@SUM(A1)" and _cell("-1+1") == "'-1+1"
    assert _cell(-0.5) == -0.5 and _cell(None) == "" and _cell("synthetic-gold") == "synthetic-gold"
    assert list(csv.reader(["'=1+1,2"])) == [["'=1+1", "2"]]


def test_the_folder_of_out_is_made_when_missing(results, tmp_path):
    """Regression (missing output folder, s43user): ``--out exp/results.csv`` with no exp/ failed with "cannot write
    exp/results.csv: No such file or directory"; ipb perturb, report, lm-eval-task and schema make the folder."""
    out = tmp_path / "exp" / "deeper" / "results.csv"
    result = runner.invoke(app, ["export", str(results), "--out", str(out), "--format", "csv"])
    assert result.exit_code == 0, result.output
    lines = out.read_text(encoding="utf-8").splitlines()
    assert lines[0].split(",")[:len(BASE_COLUMNS)] == list(BASE_COLUMNS)
    assert len(lines) - 1 == len(export_rows(results))


def test_an_out_below_a_file_is_a_located_error_not_a_traceback(results, tmp_path):
    (tmp_path / "plain").write_text("a file, not a folder", encoding="utf-8")
    out = tmp_path / "plain" / "results.csv"
    result = runner.invoke(app, ["export", str(results), "--out", str(out), "--format", "csv"])
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert f"cannot write {out}" in " ".join(result.output.split())
