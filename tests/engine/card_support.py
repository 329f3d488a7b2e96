"""The head the one-test lint cards share (tests/engine/test_lint_*): a linear conjunction, decisive by default,
valid from 2000, with one source."""

from __future__ import annotations


def lint_card_head(card_id: str, name: str) -> str:
    """The card's first nine lines, for a template read with ``str.format``: its braces are doubled, so the lines
    that follow (inputs, gates) may hold the test's own fields."""
    return (f"id: {card_id}\ninvestor: Test Investor\nname: {name}\ntopology_type: linear_sequential\n"
            "gate_logic: conjunction\ntopology_rationale: one test\ndecisive_default: true\n"
            "vintage: {{start: 2000}}\nsources: [{{tier: 1, document: Notes, year: 2000}}]\n")
