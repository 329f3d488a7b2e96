"""The head the one-test lint cards share (tests/engine/test_lint_*): a linear conjunction, decisive by default,
valid from 2000, with one source."""

from __future__ import annotations


def lint_card_head(card_id: str, name: str) -> str:
    """The card's first nine lines, for a template read with ``str.format``: its braces are doubled, so the lines
    that follow (inputs, gates) may hold the test's own fields."""
    return (f"id: {card_id}\ninvestor: Test Investor\nname: {name}\ntopology_type: linear_sequential\n"
            "gate_logic: conjunction\ntopology_rationale: one test\ndecisive_default: true\n"
            "vintage: {{start: 2000}}\nsources: [{{tier: 1, document: Notes, year: 2000}}]\n")


def screener_card_head(card_id: str, name: str, rationale: str, *, outcomes: bool = True) -> str:
    """The head of the new-user screener cards of s58-s60 (investor "Test Screener", a linear conjunction, decisive by
    default, valid from 1970, one source), up to ``inputs:``; with ``outcomes`` its last line is
    ``outcomes: {pass: BUY, fail: PASS}``. Plain text (no doubled braces): 10 lines, 11 with ``outcomes``."""
    return (f"id: {card_id}\ninvestor: Test Screener\nname: {name}\ntopology_type: linear_sequential\n"
            f"gate_logic: conjunction\ndecisive_default: true\ntopology_rationale: {rationale}\n"
            "vintage: {start: 1970, end: null}\nsources:\n  - {tier: 1, document: \"A test card\", year: 1970}\n"
            + ("outcomes: {pass: BUY, fail: PASS}\n" if outcomes else ""))
