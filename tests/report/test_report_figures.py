"""Every figure in the report equals its source; strings are escaped; the page is self-contained and stable.

The page is read with the standard library's HTML parser. Each number in a
table names its source: ``data-src`` (a JSON pointer into summary.json), or
``data-derived`` (a recipe over responses.jsonl for breakdowns the summary
does not hold). The figures are checked against those sources by code
written here, not by the report's own adapter.
"""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from report_fixtures import HOSTILE_MODEL, HOSTILE_TEXT
from ipb.errors import LoadError
from ipb.report.html import render_report, write_report
from ipb.report.data import load_results, resolve_pointer


class Page(HTMLParser):
    """Cells with a ``data-value`` (their attributes and text), scripts, and every tag and attribute."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.cells: list[dict[str, Any]] = []
        self.stack: list[dict[str, Any]] = []
        self.scripts: list[dict[str, Any]] = []
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.in_script: dict[str, Any] | None = None
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        self.tags.append((tag, a))
        if tag == "script":
            self.in_script = {"attrs": a, "text": ""}
        if tag == "td" and "data-value" in a:
            cell = {"attrs": a, "v": "", "ci": None, "part": None}
            self.cells.append(cell)
            self.stack.append(cell)
        elif self.stack and tag == "span":
            cls = a.get("class")
            self.stack[-1]["part"] = cls
            if cls == "ci":
                self.stack[-1]["ci"] = {"attrs": a, "text": ""}

    def handle_endtag(self, tag: str) -> None:
        if tag == "script" and self.in_script is not None:
            self.scripts.append(self.in_script)
            self.in_script = None
        if tag == "td" and self.stack:
            self.stack.pop()
        if tag == "span" and self.stack:
            self.stack[-1]["part"] = None

    def handle_data(self, data: str) -> None:
        if self.in_script is not None:
            self.in_script["text"] += data
            return
        self.text.append(data)
        if self.stack:
            cell = self.stack[-1]
            if cell["part"] == "v":
                cell["v"] += data
            elif cell["part"] == "ci":
                cell["ci"]["text"] += data


def _parse(path: Path) -> Page:
    page = Page()
    page.feed(path.read_text(encoding="utf-8"))
    page.close()
    return page


def _fmt(value: float, kind: str) -> str:
    if kind == "rate":
        return f"{100 * value:.1f}%"
    if kind == "delta":
        return f"{value:+.3f}"
    if kind == "count":
        return str(int(value))
    return f"{value:.3f}"


def _records(run_dir: Path) -> list[dict[str, Any]]:
    lines = (run_dir / "results" / "responses.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


def _value(unit: dict[str, Any], metric: str, count_failures: bool) -> float | None:
    """What a response or target puts in a mean: its metric when scored; a refusal's or parse failure's owed
    value when failures count (the project's rule: failing is never left out of a figure users rank by)."""
    if unit.get("status") == "scored":
        return unit["metrics"].get(metric)
    if count_failures and unit.get("outcome") in ("refusal", "parse_failure"):
        return (unit.get("owed") or {}).get(metric)
    return None


def _recompute(recipe: dict[str, Any], records: list[dict[str, Any]]) -> tuple[float | None, int]:
    """Mean and count of a derived figure, straight from the records, under the summary's failure rule."""
    where, metric = recipe["where"], recipe["metric"]
    count = recipe["failures"] == "count"
    values = []
    for r in records:
        if recipe["level"] == "response":
            if all(r.get(k) == v for k, v in where.items()) and _value(r, metric, count) is not None:
                values.append(_value(r, metric, count))
            continue
        if any(r.get(k) != v for k, v in where.items() if k in ("model", "condition_key", "layer")):
            continue
        for t in r["targets"]:
            if all(t.get(k) == v for k, v in where.items() if k not in ("model", "condition_key", "layer")):
                if _value(t, metric, count) is not None:
                    values.append(_value(t, metric, count))
    return (float(np.mean(values)) if values else None), len(values)


def test_every_figure_equals_its_source(run_dir: Path, report_path: Path) -> None:
    page = _parse(report_path)
    summary = json.loads((run_dir / "results" / "summary.json").read_text(encoding="utf-8"))
    records = _records(run_dir)
    checked = {"summary": 0, "derived": 0, "missing": 0, "derived with failures": 0}
    for cell in page.cells:
        a = cell["attrs"]
        kind = a["data-kind"]
        shown = cell["v"]
        if a["data-value"] == "":
            assert shown == "\u2014", a
            checked["missing"] += 1
            continue
        value = float(a["data-value"])
        assert shown == _fmt(value, kind), (a, shown)
        if a.get("data-src"):
            assert a["data-file"] == "summary.json"
            assert resolve_pointer(summary, a["data-src"]) == value, a
            ci = cell["ci"]
            if ci is not None:
                low, high = float(ci["attrs"]["data-low"]), float(ci["attrs"]["data-high"])
                assert resolve_pointer(summary, ci["attrs"]["data-src-low"]) == low
                assert resolve_pointer(summary, ci["attrs"]["data-src-high"]) == high
                assert ci["text"] == f"[{_fmt(low, kind)}, {_fmt(high, kind)}]"
                assert low <= value <= high
            checked["summary"] += 1
            continue
        recipe = json.loads(a["data-derived"])
        if "rank" in recipe:  # the leaderboard's "Ranked on": the mean with every unanswered item at 0
            mean, n = resolve_pointer(summary, recipe["mean"]), resolve_pointer(summary, recipe["n"])
            errors = resolve_pointer(summary, recipe["n_run_errors"]) if "n_run_errors" in recipe else 0
            expected = mean * n / (n + errors)
            if "n_items_unanswered" in recipe and resolve_pointer(summary, recipe["n_items_unanswered"]):
                total = resolve_pointer(summary, recipe["n_items"])
                expected *= (total - resolve_pointer(summary, recipe["n_items_unanswered"])) / total
            assert value == pytest.approx(expected, abs=1e-9), recipe
            assert "never answered" in a.get("title", ""), a
            checked["rank"] = checked.get("rank", 0) + 1
        elif "numerator" in recipe:  # a share of two summary counts
            num = resolve_pointer(summary, recipe["numerator"])
            den_a, _, den_b = recipe["denominator"].partition(" - ")
            den = resolve_pointer(summary, den_a) - (resolve_pointer(summary, den_b) if den_b else 0)
            assert value == pytest.approx(num / den, abs=1e-6)
        else:
            mean, n = _recompute(recipe, records)
            assert mean is not None and value == pytest.approx(mean, abs=1e-6), recipe
            assert "n = " + str(n) in a.get("title", ""), (recipe, a.get("title"))
            if re.search(r"; [1-9][0-9]* of them refusals or parse failures scored 0", a.get("title", "")):
                checked["derived with failures"] += 1
        checked["derived"] += 1
    assert checked["summary"] > 50 and checked["derived"] > 10, checked
    assert checked.get("rank") == len(summary["groups"]["model"]), checked  # one "Ranked on" per leaderboard row
    # the fixture's blank answer and unreadable answer are in some derived cells, at 0 (regression: newuser3's
    # topology table left them out of the per-model cells while its "all models" column counted them)
    assert checked["derived with failures"] > 0, checked


def test_every_number_in_a_table_names_its_source(report_path: Path) -> None:
    html = report_path.read_text(encoding="utf-8")
    for td in re.findall(r'<td class="num[^"]*"[^>]*>', html):
        assert "data-value=" in td and ("data-src=" in td or "data-derived=" in td or 'data-value=""' in td), td


def test_leaderboard_rows_match_the_summary(run_dir: Path, report_path: Path) -> None:
    summary = json.loads((run_dir / "results" / "summary.json").read_text(encoding="utf-8"))
    page = _parse(report_path)
    rows = [a.get("data-model") for tag, a in page.tags if tag == "tr" and "data-model" in a]
    models = set(summary["groups"]["model"])
    assert set(rows[: len(models)]) == models
    # ranked by the composite with every unanswered item at 0 (docs/scoring.md, "Failures count"): the mean times
    # n / (n + run errors) times the share of the items file's items the model has a record for (s47 rank rule)
    groups = summary["groups"]["model"]

    def ranked(m: str) -> float:
        g = groups[m]
        comp = g["metrics"]["layer_composite"]
        value = comp["mean"] * comp["n"] / (comp["n"] + g.get("n_run_errors", 0))
        if g.get("n_items_unanswered"):
            value *= (g["n_items"] - g["n_items_unanswered"]) / g["n_items"]
        return value

    values = [ranked(m) for m in rows[: len(models)]]
    assert values == sorted(values, reverse=True)
    # the fixture's prompted model answered one item, rightly: its shown mean is the highest, yet it ranks last
    assert rows[len(models) - 1] == "model-prompted"
    assert groups["model-prompted"]["metrics"]["layer_composite"]["mean"] == max(
        g["metrics"]["layer_composite"]["mean"] for g in groups.values())


def test_condition_deltas_are_shown_when_conditions_differ(report_path: Path) -> None:
    html = report_path.read_text(encoding="utf-8")
    assert 'id="conditions-table"' in html
    assert 'data-src="/deltas/by_model/model-mixed/C-A/layer_composite/estimate"' in html


def test_user_strings_are_escaped(run_dir: Path, report_path: Path) -> None:
    html = report_path.read_text(encoding="utf-8")
    page = _parse(report_path)
    assert HOSTILE_MODEL not in html
    assert "<b onmouseover" not in html and "<img src=x" not in html
    assert "window.__pwned" not in "".join(s["text"] for s in page.scripts if s["attrs"].get("type") != "application/json")
    scripts = [s for s in page.scripts if s["attrs"].get("id") == "ipb-responses"]
    assert len(scripts) == 1 and "<" not in scripts[0]["text"] and "\u2028" not in scripts[0]["text"]
    payload = json.loads(scripts[0]["text"])
    assert HOSTILE_TEXT in [r["text"] for r in payload["responses"]]
    assert HOSTILE_MODEL in [r["model"] for r in payload["responses"]]
    assert HOSTILE_MODEL in "".join(page.text)  # shown, as text


def test_the_page_fetches_nothing(report_path: Path) -> None:
    page = _parse(report_path)
    html = report_path.read_text(encoding="utf-8")
    for tag, attrs in page.tags:
        assert tag not in ("link", "img", "iframe", "object", "embed"), tag
        if tag == "script":
            assert "src" not in attrs
        for name in ("src", "href"):
            value = attrs.get(name) or ""
            assert not re.match(r"(?i)\s*(https?:|//|ftp:)", value), (tag, name, value)
    assert not re.search(r"(?i)@import|url\(\s*['\"]?(https?:|//)", html)
    csp = [a for t, a in page.tags if t == "meta" and a.get("http-equiv") == "Content-Security-Policy"]
    assert csp and "default-src 'none'" in (csp[0]["content"] or "")


def test_the_same_results_give_the_same_page(run_dir: Path, report_path: Path, tmp_path: Path) -> None:
    again = tmp_path / "again.html"
    write_report(run_dir / "results", again, title="ipb test report")
    assert again.read_bytes() == report_path.read_bytes()
    assert "Generated" not in report_path.read_text(encoding="utf-8")
    stamped = render_report(load_results(run_dir / "results", generated="2026-11-29"))
    assert "Generated 2026-11-29" in stamped


def test_drill_down_aligns_gold_and_parsed_traces(run_dir: Path, report_path: Path) -> None:
    page = _parse(report_path)
    payload = json.loads(next(s["text"] for s in page.scripts if s["attrs"].get("id") == "ipb-responses"))
    records = _records(run_dir)
    responses = payload["responses"]
    assert len(responses) == len(records)
    states = {row["state"] for r in responses for t in r["targets"] for row in t["rows"]}
    assert {"match", "mismatch"} <= states
    for r in responses:
        if r["status"] != "scored" or r["text"] is None:
            continue
        for t in r["targets"]:
            for row in t["rows"]:
                for kind, start, end in row["spans"]:
                    assert 0 <= start < end <= len(r["text"]), (r["key"], row)
                if row["state"] == "mismatch" and row["gold_verdict"] is not None:
                    assert row["said_verdict"] != row["gold_verdict"]
    flipped = [r for r in responses if "flip_verdict" in r["corruptions"] and r["status"] == "scored"]
    assert flipped and any(row["state"] == "mismatch" for r in flipped for t in r["targets"] for row in t["rows"])
    gate_word = next(r for r in responses if r["status"] == "scored" and r["text"])
    row = next(row for t in gate_word["targets"] for row in t["rows"] if row["spans"])
    kind, start, end = row["spans"][0]
    assert gate_word["text"][start:end].strip()


def test_missing_inputs_leave_a_report_without_texts(run_dir: Path, tmp_path: Path) -> None:
    results = tmp_path / "moved"
    results.mkdir()
    summary = json.loads((run_dir / "results" / "summary.json").read_text(encoding="utf-8"))
    summary["inputs"]["responses"]["source"] = str(tmp_path / "gone.jsonl")
    summary["inputs"]["items"]["source"] = str(tmp_path / "gone-items.jsonl")
    (results / "summary.json").write_text(json.dumps(summary), encoding="utf-8")
    (results / "responses.jsonl").write_bytes((run_dir / "results" / "responses.jsonl").read_bytes())
    data = load_results(results)
    assert all(r.text is None for r in data.responses)
    assert any("responses file was not found" in n for n in data.notes)
    assert any("items file was not found" in n for n in data.notes)
    with_overrides = load_results(results, items=run_dir / "items.jsonl", responses=run_dir / "responses.jsonl")
    assert any(r.text for r in with_overrides.responses)


@pytest.mark.parametrize(
    "change, message",
    [
        (lambda s: s.update(version=99), "format version 99"),
        (lambda s: s.pop("groups"), "does not match the summary schema"),
        (lambda s: s["counts"].update(records="many"), "does not match the summary schema"),
    ],
    ids=["unknown-version", "missing-groups", "bad-count"],
)
def test_invalid_summaries_are_rejected(run_dir: Path, tmp_path: Path, change: Any, message: str) -> None:
    summary = json.loads((run_dir / "results" / "summary.json").read_text(encoding="utf-8"))
    change(summary)
    (tmp_path / "summary.json").write_text(json.dumps(summary), encoding="utf-8")
    (tmp_path / "responses.jsonl").write_text("", encoding="utf-8")
    with pytest.raises(LoadError, match=message):
        load_results(tmp_path)


def test_a_missing_results_folder_is_a_load_error(tmp_path: Path) -> None:
    with pytest.raises(LoadError, match="cannot read"):
        load_results(tmp_path / "nowhere")


def test_relative_input_paths_are_found_from_anywhere(run_dir: Path, tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """Regression (wrong file taken): the results folder's own responses.jsonl is not the answers file."""
    from ipb.scoring.run import ScoreOptions, run_score

    work = tmp_path / "run"
    work.mkdir()
    for name in ("items.jsonl", "responses.jsonl"):
        (work / name).write_bytes((run_dir / name).read_bytes())
    monkeypatch.chdir(work)
    run_score("items.jsonl", "responses.jsonl", "results", ScoreOptions(embeddings=False, n_resamples=100))
    monkeypatch.chdir(tmp_path)
    data = load_results(work / "results")
    assert all(r.text is not None for r in data.responses)
    assert all(r.text_note is None for r in data.responses)
    assert any(t["final_gold"] for r in data.responses for t in r.targets)
