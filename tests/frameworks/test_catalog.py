"""`ipb catalog` reproduces the paper's Table 5 from the bundled cards, row for row."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from ipb.cli import app

#: Paper Table 5 (v0.6, 25 cards): investor, framework, topology, gate logic, gates, kill gates.
TABLE_5 = [
    ('Warren Buffett', 'Buffett Acquisition Checklist', 'linear_sequential', 'conjunction', 6, 6),
    ('Warren Buffett', 'Buffett Owner Earnings DCF Valuation', 'linear_sequential', 'conjunction', 3, 3),
    ('Warren Buffett', 'Buffett Share Repurchase Decision Framework', 'linear_sequential', 'conjunction', 4, 0),
    ('Charlie Munger', 'Munger Business Quality and Price Checklist', 'parallel_threshold', 'conjunction', 5, 1),
    ('Charlie Munger', 'Munger Multi-Lens Opportunity Evaluation', 'parallel_threshold', 'weighted_threshold_3_of_5', 5, 0),
    ('Benjamin Graham', 'Graham Defensive Investor Portfolio Selection', 'parallel_threshold', 'conjunction', 7, 0),
    ('Benjamin Graham', 'Graham Intrinsic Value and Margin of Safety', 'linear_sequential', 'conjunction', 4, 0),
    ('Benjamin Graham', 'Graham Net-Net Working Capital Screen', 'linear_sequential', 'conjunction', 2, 2),
    ('Benjamin Graham', 'Graham’s Seven Tests for the Defensive Investor', 'parallel_threshold', 'conjunction', 7, 7),
    ('Seth Klarman', 'Klarman Deep Value Identification Framework', 'linear_sequential', 'conjunction', 4, 2),
    ('Seth Klarman', 'Klarman Downside-First Investment Process', 'linear_sequential', 'conjunction', 3, 3),
    ('Joel Greenblatt', 'Greenblatt Spinoff Investment Checklist', 'linear_sequential', 'conjunction', 4, 0),
    ('Joel Greenblatt', 'Magic Formula Stock-Screening Procedure', 'linear_sequential', 'conjunction', 5, 3),
    ('Peter Lynch', 'Lynch Portfolio Story Review Framework', 'linear_sequential', 'disjunction', 4, 0),
    ('Peter Lynch', 'Lynch Six-Category Investment Framework', 'conditional_branch', 'regime_dependent', 4, 0),
    ('Howard Marks', 'Marks Distressed Debt Investment Framework', 'linear_sequential', 'conjunction', 5, 0),
    ('Howard Marks', 'Marks Market Cycle Positioning Framework', 'conditional_branch', 'regime_dependent', 2, 2),
    ('Howard Marks', 'Marks Risk-Return Assessment Framework', 'parallel_threshold', 'weighted_threshold_3_of_5', 5, 0),
    ('Ray Dalio', 'All-Weather Portfolio Construction', 'linear_sequential', 'conjunction', 3, 1),
    ('Ray Dalio', 'Dalio All Weather Rebalancing Framework', 'linear_sequential', 'conjunction', 3, 0),
    ('Ray Dalio', 'Dalio Bubble Detection Gauge', 'parallel_threshold', 'weighted_threshold_4_of_7', 7, 7),
    ('Ray Dalio', 'Dalio Debt Supercycle Navigation Framework', 'conditional_branch', 'regime_dependent', 2, 2),
    ('Ray Dalio', 'Dalio Economic Machine Portfolio Positioning', 'conditional_branch', 'regime_dependent', 5, 0),
    ('George Soros', 'Soros Conviction-Weighted Position Sizing', 'linear_sequential', 'conjunction', 4, 0),
    ('George Soros', 'Soros Reflexive Hypothesis Trade Construction', 'linear_sequential', 'conjunction', 5, 0),
]


def catalog() -> list[dict[str, object]]:
    result = CliRunner().invoke(app, ["catalog", "--format", "json"], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def test_catalog_equals_table_5():
    practitioners = [r for r in catalog() if r["kind"] == "practitioner"]
    got = sorted(
        (r["investor"], r["name"], r["topology_type"], r["gate_logic"], r["gates"], r["kill_gates"]) for r in practitioners
    )
    assert got == sorted(TABLE_5)


def test_table_5_topology_distribution():
    """15 linear_sequential, 6 parallel_threshold, 4 conditional_branch (paper §5.2)."""
    topologies = [r["topology_type"] for r in catalog() if r["kind"] == "practitioner"]
    assert (topologies.count("linear_sequential"), topologies.count("parallel_threshold"),
            topologies.count("conditional_branch")) == (15, 6, 4)


def test_catalog_lists_the_three_institutions_after_the_practitioners():
    rows = catalog()
    kinds = [r["kind"] for r in rows]
    assert kinds.count("institution") == 3
    assert kinds == sorted(kinds, key=lambda k: k != "practitioner")
