"""Past ``LEADER_ROWS`` (50) models the model-column tables are written with models as rows, folded as the leaderboard.

s49report: 500 models made the layers, FMDP, topology and L4 tables 500 columns wide (1.1 MB for FMDP alone) and
Figure 6's 500 legend labels overlapped. The summary here has 60 models, m00 ... m59, each with one L7 and one L4
response (m54 has no L4 one). Every response of model ``mNN`` has the layer composite 0.9 - NN / 100, so the ranks
are worked by hand: ``mNN`` ranks NN + 1, and ranks 51 to 60 are m50 ... m59.

What each table must then hold (worked from the summary, not read off the page):

* layers: columns #, Model, L4, L7, Overall (5); 50 model rows open (m00 ... m49), 10 folded (ranks 51 to 60);
* FMDP: columns #, Model, FM-1 ... FM-6 (8); 50 open, 10 folded;
* topology: columns #, Model, linear_sequential, conditional_branch (4); 50 model rows and the "all models" row
  open, 10 folded;
* L4 (models already in rows): 59 models have L4; m00 ... m49 open, the 9 others (ranks 51 to 60 less m54's 55)
  folded under "Ranks 51 to 60 (9 models)";
* Figure 6: 24 model names in the legend (m00 ... m23) and one grey entry "ranks 25 to 60".

At 50 models or fewer the page keeps its layout: tests/report/test_report_figures.py and the others run on four.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from ipb.report.data import load_results
from ipb.report.html import render_report

MODELS = [f"m{i:02d}" for i in range(60)]


def _record(n: int, model: str, layer: str, value: float) -> dict[str, Any]:
    topology = "linear_sequential" if layer == "L7" else "conditional_branch"
    metrics = {"layer_composite": value, "gra": value, "kccs": value, "ogrs_k": value}
    return {"kind": "ipb.score.response", "version": 1, "record": n, "source": f"responses.jsonl:{n}",
            "item_id": f"{layer}-1", "model": model, "condition": "A", "condition_key": "A", "layer": layer,
            "flags": {}, "error": None, "status": "scored", "outcome": "scored", "reason_code": None, "reason": None,
            "metrics": metrics,
            "targets": [{"card": "graham_seven_tests_defensive", "investor": "Benjamin Graham", "topology": topology,
                         "flags": {}, "status": "scored", "outcome": "scored", "metrics": dict(metrics)}]}


@pytest.fixture(scope="module")
def page(tmp_path_factory: pytest.TempPathFactory) -> str:
    from ipb.scoring.options import ScoreOptions
    from ipb.scoring.summary import summarize

    records: list[dict[str, Any]] = []
    for i, model in enumerate(MODELS):
        value = round(0.9 - i / 100, 2)
        records.append(_record(len(records) + 1, model, "L7", value))
        if model != "m54":
            records.append(_record(len(records) + 1, model, "L4", value))
    summary = summarize(records, options=ScoreOptions(seed=0, n_resamples=20, embeddings=False))
    folder = tmp_path_factory.mktemp("many") / "results"
    folder.mkdir()
    (folder / "summary.json").write_text(json.dumps(summary), encoding="utf-8")
    (folder / "responses.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    data = load_results(folder)
    assert [r.model for r in data.leaderboard] == MODELS, "the hand-worked ranks: mNN ranks NN + 1"
    return render_report(data)


def _section(page: str, sid: str) -> str:
    start = page.index(f'<section id="{sid}">')
    return page[start:page.index("</section>", start)]


def _table(html: str, table_id: str) -> tuple[list[str], list[str]]:
    """The header cells' text and the rows' ``data-row`` keys of the table ``table_id`` in ``html``."""
    start = html.index(f'id="{table_id}"')
    table = html[start:html.index("</table>", start)]
    head = re.findall(r"<th[^>]*>([^<]*)</th>", table[table.index("<thead>"):table.index("</thead>")])
    rows = re.findall(r'<tr data-row="([^"]*)"', table)
    return head, rows


@pytest.mark.parametrize(("sid", "columns"), [
    ("layers", ["L4: Framework Reconstruction", "L7: Scenario Application", "Overall"]),
    ("fmdp", ["FM-1: Hallucinated Gate", "FM-2: Temporal Conflation", "FM-3: Kill Criterion Omission",
              "FM-4: Voice Diffusion", "FM-5: Operationalization Flattening", "FM-6: Anachronistic Application"]),
    ("topology", ["linear_sequential", "conditional_branch"]),
])
def test_model_column_tables_are_transposed_and_folded(page: str, sid: str, columns: list[str]) -> None:
    section = _section(page, sid)
    head, rows = _table(section, f"{sid}-table")
    assert head == ["#", "Model"] + columns
    extra = ["all models"] if sid == "topology" else []
    assert rows == MODELS[:50] + extra
    assert f'<details class="more" id="{sid}-more"><summary>Ranks 51 to 60</summary>' in section
    more_head, more_rows = _table(section, f"{sid}-table-more")
    assert more_head == head
    assert more_rows == MODELS[50:]
    ranks = re.findall(r'<td class="rank">(\d*)</td>', section)
    assert ranks == [str(r) for r in range(1, 51)] + [""] * len(extra) + [str(r) for r in range(51, 61)]


def test_l4_rows_are_folded_past_fifty(page: str) -> None:
    section = _section(page, "l4")
    head, rows = _table(section, "l4-table")
    assert head[:3] == ["#", "Model", "n (L4)"] and head[-1] == "FM-3 rate"
    assert rows == MODELS[:50]
    assert "<summary>Ranks 51 to 60 (9 models)</summary>" in section
    more_head, more_rows = _table(section, "l4-table-more")
    assert more_head == head
    assert more_rows == [m for m in MODELS[50:] if m != "m54"]


def test_a_transposed_row_holds_its_own_models_values(page: str) -> None:
    # m59's L7 composite 0.31 and m00's 0.90: in the layers table's folded and open parts, under their own model
    section = _section(page, "layers")
    m59 = section[section.index('<tr data-row="m59"'):]
    m59 = m59[:m59.index("</tr>")]
    assert re.findall(r'<span class="v">([^<]*)</span>', m59) == ["0.310", "0.310", "0.310"]
    m54 = section[section.index('<tr data-row="m54"'):]
    m54 = m54[:m54.index("</tr>")]
    assert re.findall(r'<span class="v">([^<]*)</span>', m54) == ["\u2014", "0.360", "0.360"], "m54 has no L4"


def test_figure6_names_only_the_first_24(page: str) -> None:
    section = _section(page, "scatter")
    # matplotlib draws the legend's words as paths and keeps each string in an SVG comment beside them
    texts = re.findall(r"<!-- ([^>]*) -->", section)
    assert [t for t in texts if t in MODELS] == MODELS[:24]
    assert "ranks 25 to 60 (no CIs)" in texts
    assert "Past 50 models only the first 24 in rank order are coloured, named and drawn with CIs" in section
