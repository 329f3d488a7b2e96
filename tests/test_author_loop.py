"""The framework author's loop (issue 17, item 1): a card written here, outside the package, goes
check -> run -> perturb -> verify -> respond --synthetic -> score -> report with nothing copied
into the package, because each items file carries its cards (``ipb-cards/<sha256>.yaml``).

Expected values are worked by hand from the card below (Piotroski 2000, nine signals, buy at 8 of 9).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ipb.cli import app
from ipb.engine import registry

runner = CliRunner()

CARD = """\
id: piotroski_f_score
version: 1
investor: Joseph Piotroski
name: Piotroski F-Score Screen
description: >
  Nine binary signals of financial strength for a cheap (high book-to-market)
  stock; the stock is bought when at least eight of the nine are present.
topology_type: parallel_threshold
gate_logic: weighted_threshold_8_of_9
topology_rationale: >
  The nine signals are computed side by side from the same two years of
  statements and none feeds another; the score counts the signals present,
  and the card buys at eight or more.
vintage: {start: 2000, end: 2024}
sources:
  - {tier: 1, document: "Value Investing: The Use of Historical Financial Statement Information to Separate Winners from Losers", year: 2000}
outcomes: {pass: BUY, fail: PASS}
threshold: {count: PROCEED, at_least: 8}

inputs:
  roa: {type: ratio, description: Return on assets this year., range: [-50%, 50%], step: 1%}
  roa_prior: {type: ratio, description: Return on assets last year., range: [-50%, 50%], step: 1%}
  cfo_to_assets: {type: ratio, description: Cash flow from operations over total assets., range: [-50%, 50%], step: 1%}
  leverage_change: {type: ratio, description: Change in long-term debt over assets., range: [-20%, 20%], step: 1%}
  current_ratio_change: {type: number, description: Change in the current ratio., range: [-2, 2], step: 0.1}
  shares_issued: {type: bool, description: Whether common equity was issued in the year.}
  gross_margin_change: {type: ratio, description: Change in gross margin., range: [-20%, 20%], step: 1%}
  turnover_change: {type: number, description: Change in asset turnover., range: [-1, 1], step: 0.1}

gates:
  - id: positive_roa
    name: Positive Return on Assets
    description: Net income before extraordinary items over assets is positive.
    proceed: roa > 0%
    reject: roa <= 0%
    required_elements: ["ROA {roa}"]
  - id: positive_cfo
    name: Positive Operating Cash Flow
    description: Cash flow from operations is positive.
    proceed: cfo_to_assets > 0%
    reject: cfo_to_assets <= 0%
    required_elements: ["CFO {cfo_to_assets}"]
  - id: improving_roa
    name: Improving Return on Assets
    description: ROA is higher than last year.
    proceed: roa > roa_prior
    reject: roa <= roa_prior
    required_elements: ["ROA {roa} vs {roa_prior}"]
  - id: accruals
    name: Cash Flow Above Earnings
    description: Cash flow from operations exceeds ROA (low accruals).
    proceed: cfo_to_assets > roa
    reject: cfo_to_assets <= roa
    required_elements: ["accruals"]
  - id: falling_leverage
    name: Falling Leverage
    description: Long-term debt over assets fell.
    proceed: leverage_change < 0%
    reject: leverage_change >= 0%
    required_elements: ["leverage change {leverage_change}"]
  - id: rising_liquidity
    name: Rising Liquidity
    description: The current ratio rose.
    proceed: current_ratio_change > 0
    reject: current_ratio_change <= 0
    required_elements: ["current ratio change {current_ratio_change}"]
  - id: no_dilution
    name: No Equity Issued
    description: No common equity was issued in the year.
    proceed: not shares_issued
    reject: shares_issued
    required_elements: ["no dilution"]
  - id: rising_margin
    name: Rising Gross Margin
    description: Gross margin rose.
    proceed: gross_margin_change > 0%
    reject: gross_margin_change <= 0%
    required_elements: ["gross margin change {gross_margin_change}"]
  - id: rising_turnover
    name: Rising Asset Turnover
    description: Asset turnover rose.
    proceed: turnover_change > 0
    reject: turnover_change <= 0
    required_elements: ["turnover change {turnover_change}"]
"""

BASE = """\
id: PIO-001
layer: L7
card: piotroski_f_score
title: A strong cheap stock
as_of: "2010-06-30"
facts:
  roa: 6%
  roa_prior: 4%
  cfo_to_assets: 9%
  leverage_change: -2%
  current_ratio_change: 0.3
  shares_issued: false
  gross_margin_change: 1%
  turnover_change: -0.1
"""


@pytest.fixture(autouse=True)
def _reset_card_search(monkeypatch):
    monkeypatch.delenv("IPB_CARDS", raising=False)
    yield
    registry.use_cards(())


def invoke(*args: str, env: dict[str, str] | None = None):
    return runner.invoke(app, list(args), catch_exceptions=False, env=env)


def _write_card(folder: Path, text: str = CARD) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "piotroski.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def _perturb(tmp_path: Path) -> tuple[Path, str]:
    card = _write_card(tmp_path / "author")
    base = tmp_path / "author" / "base.yaml"
    base.write_text(BASE, encoding="utf-8")
    items = tmp_path / "run" / "items.jsonl"
    items.parent.mkdir()
    result = invoke("perturb", "--card", str(card), "--base", str(base), "--n", "6", "--seed", "1",
                    "--ops", "metric,flip", "--out", str(items))
    assert result.exit_code == 0, result.output
    sha = hashlib.sha256(CARD.rstrip("\n").encode("utf-8")).hexdigest()
    return items, sha


def test_a_card_outside_the_package_goes_from_check_to_report(tmp_path):
    card = _write_card(tmp_path / "author")
    base = tmp_path / "author" / "base.yaml"
    base.write_text(BASE, encoding="utf-8")
    assert invoke("check", str(card), str(base)).exit_code == 0
    # by hand: eight signals hold, asset turnover fell -> 8 of 9 -> BUY
    grp = json.loads(invoke("run", str(card), str(base), "-f", "json").output)
    assert grp["investment_verdict"] == "BUY"
    assert grp["verdict_trigger"] == "threshold_met_8_of_9"
    assert [g["verdict"] for g in grp["gold_program"]].count("PROCEED") == 8

    items, sha = _perturb(tmp_path)
    copy = items.parent / "ipb-cards" / f"{sha}.yaml"
    assert copy.read_text(encoding="utf-8") == CARD
    for line in items.read_text(encoding="utf-8").splitlines():
        (entry,) = json.loads(line)["manifest"]["cards"]
        assert entry == {**entry, "id": "piotroski_f_score", "content_hash": sha, "source": f"ipb-cards/{sha}.yaml"}
    # the author's file is gone: from here on only the items' own copy can serve
    card.unlink()
    assert not any("piotroski" in p.name for p in registry.bundled_card_paths())

    verified = invoke("verify", str(items))
    assert verified.exit_code == 0, verified.output
    assert "verified 6 of 6" in verified.output

    responses = items.parent / "responses.jsonl"
    result = invoke("respond", "--synthetic", "--items", str(items), "--out", str(responses))
    assert result.exit_code == 0, result.output
    records = [json.loads(x) for x in responses.read_text(encoding="utf-8").splitlines()]
    assert len(records) >= 6 and {r["item_id"] for r in records} == {json.loads(x)["id"] for x in items.read_text().splitlines()}

    scored = items.parent / "scored"
    result = invoke("score", "--items", str(items), "--responses", str(responses), "--out", str(scored),
                    "--no-embeddings", "--resamples", "20", "--no-progress")
    assert result.exit_code == 0, result.output
    summary = json.loads((scored / "summary.json").read_text(encoding="utf-8"))
    assert summary["inputs"]["items"]["n_items"] == 6
    assert summary["inputs"]["items"]["n_unusable"] == 0
    assert f"scored {len(records)} of {len(records)} record(s)" in result.output

    html = items.parent / "report.html"
    result = invoke("report", str(scored), "--out", str(html))
    assert result.exit_code == 0, result.output
    assert "piotroski_f_score" in html.read_text(encoding="utf-8")


EDITED = CARD.replace("weighted_threshold_8_of_9", "weighted_threshold_7_of_9").replace("at_least: 8", "at_least: 7")


def test_a_card_whose_hash_differs_from_the_items_is_refused(tmp_path):
    items, sha = _perturb(tmp_path)
    edited = _write_card(tmp_path / "edited", EDITED)
    responses = items.parent / "responses.jsonl"
    assert invoke("respond", "--synthetic", "--items", str(items), "--out", str(responses)).exit_code == 0
    for args, env in (
        (("score", "--items", str(items), "--responses", str(responses), "--out", str(tmp_path / "s"),
          "--no-embeddings", "--cards", str(edited.parent)), None),
        (("respond", "--synthetic", "--items", str(items), "--out", str(tmp_path / "r.jsonl")),
         {"IPB_CARDS": str(edited.parent)}),
    ):
        result = invoke(*args, env=env)
        assert result.exit_code == 1
        text = " ".join(result.output.split())
        assert "card 'piotroski_f_score'" in text and "the card changed since the items were written" in text
        assert sha[:12] in text and hashlib.sha256(EDITED.rstrip("\n").encode()).hexdigest()[:12] in text
        assert "Traceback" not in result.output


def test_verify_against_an_edited_card_names_the_change_and_the_items_copy(tmp_path):
    items, sha = _perturb(tmp_path)
    edited = _write_card(tmp_path / "edited", EDITED)
    result = invoke("verify", str(items), "--cards", str(edited.parent), "-f", "json")
    assert result.exit_code == 1
    report = json.loads(result.output)
    assert report["changed_cards"] == ["piotroski_f_score"]
    # 7 of 9 turns some PASS items into BUY; each such item names the items' own copy
    assert report["mismatched"] >= 1
    assert any(f"ipb-cards/{sha}.yaml" in p for c in report["problems"] for p in c["problems"])
    # the same problem on several records is printed once, with a count (was once per record)
    table = invoke("verify", str(items), "--cards", str(edited.parent)).output
    line = next(x for x in table.splitlines() if "investment_verdict: PASS -> BUY" in x)
    assert f"(and {report['mismatched'] - 1} more record(s) with the same problem" in line
    assert table.count("investment_verdict: PASS -> BUY") == 1


def test_an_unknown_card_id_says_where_it_looked_and_how_to_add_a_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("IPB_CARDS", str(tmp_path))
    result = invoke("run", "piotroski_f_score")
    assert result.exit_code == 1
    text = " ".join(result.output.split())
    assert f"--cards/IPB_CARDS {tmp_path}" in text and "--cards DIR or IPB_CARDS" in text
    _write_card(tmp_path)
    assert "Final verdict: INCONCLUSIVE" in invoke("run", "piotroski_f_score").output


def test_respond_synthetic_finds_the_card_in_a_cards_folder_when_the_copy_is_gone(tmp_path):
    items, sha = _perturb(tmp_path)
    copy = items.parent / "ipb-cards" / f"{sha}.yaml"
    folder = tmp_path / "my-cards"
    folder.mkdir()
    (folder / "any-name.yaml").write_text(copy.read_text(encoding="utf-8"), encoding="utf-8")
    copy.unlink()
    out = items.parent / "r.jsonl"
    assert invoke("respond", "--synthetic", "--items", str(items), "--out", str(out)).exit_code == 1
    result = invoke("respond", "--synthetic", "--items", str(items), "--out", str(out), "--cards", str(folder))
    assert result.exit_code == 0, result.output
