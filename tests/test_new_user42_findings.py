"""A new user's pass with a framework of their own (branch s42user): Altman's Z-score zones as a lender's
regime card (safe, grey, distress), taken through check -> run -> graph -> perturb -> verify -> parse -> score
from the README and docs alone. Each test pins one finding; the notes are in /work/notes/user42.md.
"""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from ipb.cli import app

runner = CliRunner()
HERE = Path(__file__).resolve().parent / "fixtures" / "new_user42"
CARD = HERE / "altman_z_credit_screen.yaml"
EDGE = HERE / "altman_edge.yaml"


# --- a computed value that adds ratios and multiples (bug kind: the sum took its first term's unit, so Altman's
# --- Z = 1.2 X1 + 1.4 X2 + 3.3 X3 + 0.6 X4 + 1.0 X5 with X1-X3 ratios and X4, X5 multiples was a ratio)


def test_z_at_the_grey_zone_edge_reads_as_a_plain_number_in_the_grp():
    result = runner.invoke(app, ["run", str(CARD), str(EDGE), "--format", "json"])
    assert result.exit_code == 0, result.output
    grp = json.loads(result.output)
    # Z = 1.2 * 15% + 1.4 * 20% + 3.3 * 10% + 0.6 * 1x + 1.0 * 1.6x = 0.18 + 0.28 + 0.33 + 0.6 + 1.6 = 2.99,
    # exactly the safe floor, which needs more: the grey zone
    assert grp["regime"] == "grey"
    assert grp["gold_program"][0]["required_elements"][0] == "Z 2.99"  # before: "Z 299%"
    assert grp["investment_verdict"] == "EXTEND_WITH_COVENANTS"


def test_check_gives_no_percentage_advice_for_a_plain_z_threshold(tmp_path):
    card = tmp_path / "altman.yaml"
    card.write_text(CARD.read_text(encoding="utf-8").replace("when: z > safe_floor", "when: z > 2.99"),
                    encoding="utf-8")
    result = runner.invoke(app, ["check", str(card), str(EDGE)])
    assert result.exit_code == 0, result.output
    # before: "threshold '2.99' has no unit but 'z' is a ratio; write it as a percentage such as 90%"
    assert "unitless-threshold" not in result.output


def test_a_right_answer_stating_z_is_credited_for_the_z_element(tmp_path):
    items = tmp_path / "items.jsonl"
    made = runner.invoke(app, ["perturb", "--card", str(CARD), "--base", str(EDGE), "--n", "1", "--ops", "metric",
                               "--seed", "3", "--out", str(items)])
    assert made.exit_code == 0, made.output
    item = json.loads(items.read_text(encoding="utf-8").splitlines()[0])
    gates = item["grp"]["gold_program"]
    z_element = gates[0]["required_elements"][0]
    assert z_element.startswith("Z ") and "%" not in z_element and "x" not in z_element
    z_text = z_element[2:]
    # the element read back as the GRP writes it ("Z 2.864"; a one-letter word is no stem, so "Z = 2.864" is still
    # not read: the notes' open finding)
    lines = [f"Gate 1, Place the borrower in a Z zone: {gates[0]['verdict']}. Z {z_text}; safe above 2.99, "
             "distress below 1.81."]
    lines += [f"Gate {g['gate']}, {g['name']}: {g['verdict']}." for g in gates[1:]]
    lines.append(f"Final verdict: {item['investment_verdict']}")
    responses = tmp_path / "responses.jsonl"
    responses.write_text(json.dumps({"item_id": item["id"], "model": "m", "condition": "A",
                                     "response": "\n".join(lines)}) + "\n", encoding="utf-8")
    out = tmp_path / "results"
    scored = runner.invoke(app, ["score", "--items", str(items), "--responses", str(responses), "--out", str(out),
                                 "--no-embeddings"])
    assert scored.exit_code == 0, scored.output
    record = json.loads((out / "responses.jsonl").read_text(encoding="utf-8").splitlines()[0])
    parsed = record["targets"][0]["parsed"]["gates"][0]
    assert z_element in parsed["elements"]  # before: the element was "Z 286.4%", and "Z 2.864" did not state it


# --- ipb graph on a gate shared by two branches (bug kind: its edges did not say which branch takes them)


def test_graph_names_the_branch_on_the_edges_of_a_shared_gate():
    result = runner.invoke(app, ["graph", str(CARD), "--format", "dot"])
    assert result.exit_code == 0, result.output
    edges = {line.split(" [label=")[0]: line.split('label="')[1].split('"')[0]
             for line in result.output.splitlines() if " -> " in line}
    # z_trend is on the safe branch (fail: REVIEW) and the grey one (fail: DECLINE, then the coverage gate)
    assert edges["z_trend -> outcome_REVIEW"] == "safe: z_falling_fast"  # before: "z_falling_fast" on both
    assert edges["z_trend -> outcome_DECLINE"] == "grey: z_falling_fast"
    assert edges["z_trend -> coverage"] == "grey: PROCEED"  # before: "PROCEED"
    # a gate on one branch keeps its plain labels
    assert edges["coverage -> outcome_DECLINE"] == "thin_interest_cover"
    assert edges["collateral -> outcome_DECLINE"] == "insufficient_collateral"
