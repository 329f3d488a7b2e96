"""``ipb parse`` says how ``ipb score`` files the answer (s41user, regression: parse/score disagreement).

A new evaluator checked answers with ``ipb parse``: "Final verdict: BUY" and a
short "I'm sorry, but I can't help with that." both printed "parse failure" and
exited 1, while ``ipb score`` scored the first on its stated verdict
(VerdictAcc 1, L7 composite 0.20) and filed the second as a refusal. Each
answer of the table below is given to both; the outcome and reason code
``ipb parse`` prints must be the ones ``ipb.score`` records for the same answer
and card.
"""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

import ipb
from ipb.cli import app

runner = CliRunner()
CARD = "graham_net_net_screen"
FACTS = {"market_value": "$25M", "current_assets": "$45M", "total_liabilities": "$12M", "preferred_stock": "$3M"}

# (id, answer, the line's label as ipb parse prints it, outcome and reason code ipb.score records, parse exit code)
CASES = [
    ("verdict-only", "Final verdict: DECLINE", "ipb score: scored -- on its stated final verdict DECLINE alone",
     ("scored", None), 1),
    ("short-decline", "I'm sorry, but I can't help with that.", "ipb score: refusal -- the model declined",
     ("refusal", "refusal"), 1),
    ("gibberish", "asdf qwer ## ]]] 0x7f zzzz lorem ipsum dolor", "ipb score: refusal (off_topic) --",
     ("refusal", "off_topic"), 1),
    ("unknown-everywhere", "Two-thirds of NCAV test: unknown.\nEarnings: unknown.",
     "ipb score: refusal (no_commitment) --", ("refusal", "no_commitment"), 0),
    ("full-answer", "Gate 1 (net current asset value test): REJECT, price above two-thirds.\nFinal verdict: DECLINE",
     None, ("scored", None), 0),
    ("too-short", "hmm", "ipb score: parse failure --", ("parse_failure", "parse_failure"), 1),
]


@pytest.mark.parametrize(("answer", "line", "filed", "code"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_parse_prints_the_filing_score_records(answer: str, line: str | None, filed: tuple, code: int) -> None:
    result = runner.invoke(app, ["parse", CARD, "-", "--no-embed", "--format", "json"], input=answer,
                           catch_exceptions=False, env={"COLUMNS": "220"})
    assert result.exit_code == code, result.output
    if line is None:  # a gate decided: the trace shown is what is scored, and the output is the JSON alone
        assert "ipb score:" not in result.output
    else:
        assert line in result.output
    record = ipb.score(answer, card=CARD, facts=FACTS)
    assert (record["outcome"], record["reason_code"]) == filed


def test_the_filing_line_comes_after_the_parse_failure_line() -> None:
    result = runner.invoke(app, ["parse", CARD, "-", "--no-embed"], input="Final verdict: DECLINE",
                           catch_exceptions=False, env={"COLUMNS": "220"})
    lines = [ln for ln in result.output.splitlines() if ln.strip()]
    assert lines[-2].startswith("parse failure: no gate of card 'graham_net_net_screen' recognised")
    assert lines[-1].startswith("ipb score: scored -- on its stated final verdict DECLINE alone")
