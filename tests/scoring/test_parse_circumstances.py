"""Where a gate's verdict word stands lowers its confidence, never its reading (issue 13 item 3; ``_circumstances.py``).

Hand-worked from the table in :mod:`ipb.scoring.parse._circumstances`; the
answers are short ones written for the test (never corpus text). A label's
word ("Economic Moat: PROCEED") is level 4 (0.95), a committed word after a
sentence ("... we understand it. PROCEED.") level 3 (0.85).

=====================================================  ===========================
reading                                                confidence
=====================================================  ===========================
"Step 1: ... PROCEED." (number through a Step label)   0.85 x 0.8 = 0.68
"Gate 1: ... PROCEED." (the card's own numbering)       0.85
"Economic Moat: PROCEED, assumed fine; ... not          0.95 x 0.7 = 0.665
available."
"Management Integrity: INCONCLUSIVE, ... not            0.95 (INCONCLUSIVE spared)
available."
moat's PROCEED in a "Notes" section 4 lines below       0.95 (no factor: "neighbouring"
its name                                               was measured and left out)
"| 1 | Prices high ... | \u2705 present |" (a tick, its    0.95 x 0.6 = 0.57
cell saying the warning sign holds)
"| 5 | Leverage | ... | \u2705 |" (a tick alone)          0.95 x 0.945 (fuzzy) = 0.898
=====================================================  ===========================
"""

from __future__ import annotations

from typing import Any

import pytest

from ipb.engine.registry import compiled_card
from ipb.scoring.parse import _circumstances, parse_response
from ipb.scoring.parse._circumstances import CIRCUMSTANCE_FACTORS, circumstance_factor, circumstances

BUFFETT = compiled_card("buffett_acquisition_checklist").card
GAUGE_CARD = compiled_card("dalio_bubble_detection_gauge").card

STEPS = ("Step 1: what the firm does. We understand payroll software well. PROCEED.\n"
         "Step 2: durable edge. Retention is 95%. PROCEED.\nConclusion: INVEST.")
UNSUPPORTED = ("1. Circle of Competence: PROCEED, a business we understand.\n"
               "2. Economic Moat: PROCEED, assumed fine; the churn report is not available.\n"
               "3. Management Integrity: INCONCLUSIVE, the proxy statement is not available.\nVerdict: DECLINE.")
GAUGE = ("| # | Gauge | Reading | Flag |\n|---|---|---|---|\n"
         "| 1 | Prices high vs traditional measures | 91st percentile | \u2705 present |\n"
         "| 3 | New buyers | 40th percentile | \u274c absent |\n"
         "| 5 | Leverage | 85th percentile | \u2705 |\n\nVerdict: not a bubble.")
NEIGHBOUR = ("## Circle of Competence\nPayroll software; we understand it. PROCEED.\n\n## Economic Moat\nRetention is 95%.\n\n"
             "## Notes\nPricing rose 4% a year.\nChurn is flat.\nThe moat holds: PROCEED.\n\nVerdict: INVEST.")


def _without_confidence(parsed: Any) -> dict[str, Any]:
    d = parsed.to_dict()
    for g in d["gates"]:
        g.pop("confidence")
    d.pop("final_confidence")
    return d


# --------------------------------------------------------------------------- the shapes, on the function


@pytest.mark.parametrize(("text", "verdict", "vspan", "mention", "how", "want"), [
    ("Step 4 - Management: PROCEED.", "PROCEED", (21, 28), (0, 6), "number", ["own-step"]),
    ("Stage 2: moat. PROCEED.", "PROCEED", (15, 22), (0, 7), "number", ["own-step"]),
    ("Gate 4 - Management: PROCEED.", "PROCEED", (21, 28), (0, 6), "number", []),  # the card's numbering
    ("Step 4 - Management: PROCEED.", "PROCEED", (21, 28), (9, 19), "name", []),  # named, not numbered
    ("Moat: PASS, assumed fine.", "PROCEED", (6, 10), (0, 4), "name", ["unsupported"]),
    ("Moat: FAIL, data not yet available.", "REJECT", (6, 10), (0, 4), "name", ["unsupported"]),
    ("Moat: INCONCLUSIVE, data not available.", "INCONCLUSIVE", (6, 18), (0, 4), "name", []),  # what the line supports
    ("Moat: PASS.\nAssumed rates stay at 4%.", "PROCEED", (6, 10), (0, 4), "name", []),  # on another line
    ("Moat: PASS, four of five only because goodwill blurs it.", "PROCEED", (6, 10), (0, 4), "name", []),  # a concession
    ("Debt: FAIL. Considered: phase unknown; dollar debt 65%.", "REJECT", (6, 10), (0, 4), "name", []),  # an unknown input listed
    ("Edge: PASS. Considered: what the price already assumes.", "PROCEED", (6, 10), (0, 4), "name", []),  # 'assumes' is no doubt
    ("Step 2: PASS, assumed fine.", "PROCEED", (8, 12), (0, 6), "number", ["own-step", "unsupported"]),
    ("Step 2: moat.", None, None, (0, 6), "number", []),  # no verdict, no circumstance
    ("Moat: \u2705 fails the bar.", "PROCEED", (6, 7), (0, 4), "name", []),  # a verdict word: the parser reads it itself
    ("Moat: \u2705 present.", "PROCEED", (6, 7), (0, 4), "name", []),  # 'present' says nothing without a sign
])
def test_each_shape_is_found_where_it_holds_and_only_there(text: str, verdict: str | None, vspan: tuple[int, int] | None,
                                                           mention: tuple[int, int], how: str, want: list[str]) -> None:
    assert circumstances(text, verdict, vspan, mention, how) == want


@pytest.mark.parametrize(("text", "vspan", "want"), [
    ("| Leverage | 85th | \u2705 present |", (19, 20), ["contradicted"]),  # a warning sign holds: not the tick's pass
    ("| Leverage | 85th | \u2705 |", (19, 20), []),  # a tick alone
    ("| Leverage | 85th | \u2705 | present |", (19, 20), []),  # another cell: not the mark's own
    ("Leverage: \u2705\nMargin debt present.", (10, 11), []),  # another line
    ("Leverage: \u2705 present, 85th percentile.", (10, 11), ["contradicted"]),  # a line, no table
    ("| Leverage | 85th | present \u2705 |", (28, 29), ["contradicted"]),  # the word before the mark, same cell
    ("| Leverage | present | \u2705 |", (23, 24), []),  # the cell before: not the mark's own
    ("Leverage present? \u2705", (18, 19), []),  # no table: only what follows the mark counts
])
def test_a_mark_contradicted_by_its_own_cell(text: str, vspan: tuple[int, int], want: list[str]) -> None:
    assert circumstances(text, "PROCEED", vspan, (2, 10), "name", "REJECT") == want


@pytest.mark.parametrize(("cell", "verdict", "sign", "want"), [
    ("\u2705 present", "PROCEED", "REJECT", True),  # a warning sign holds: the gate fails, not the tick's pass
    ("\u2705 flagged", "PROCEED", "REJECT", True),
    ("\u2705 not present", "PROCEED", "REJECT", False),  # the sign is quiet: agrees with the tick
    ("\u274c absent", "REJECT", "REJECT", True),
    ("\u274c present", "REJECT", "REJECT", False),
    ("\u2705 absent", "PROCEED", "PROCEED", True),  # a gate whose condition lets it proceed: the reverse
    ("\u274c triggered", "REJECT", "PROCEED", True),
    ("\u2705 triggered", "PROCEED", "PROCEED", False),
    ("\u2705 present", "PROCEED", None, False),  # neither kind of gate: the sign says nothing
    ("\u2705 absent in May, present in June", "PROCEED", "REJECT", False),  # the cell says both
])
def test_a_sign_word_reads_by_the_gate_kind(cell: str, verdict: str, sign: str | None, want: bool) -> None:
    text = f"| Leverage | 85th | {cell} |"
    assert _circumstances.contradicted(text, verdict, (19, 20), sign) is want


@pytest.mark.parametrize("cell", [
    "\u2705 none present", "\u2705 never triggered", "\u2705 hasn't triggered", "\u2705 not currently present",
    "\u2705 nothing flagged", "\u2705 no issues flagged", "\u2705 isn't present", "\u2705 present value above price",
], ids=["none", "never", "hasnt", "not-currently", "nothing", "no-issues", "isnt", "present-value"])
def test_a_quiet_sign_said_otherwise_agrees_with_a_tick(cell: str) -> None:
    # a negator a word or two before the status word, or "present" as an adjective of value: the warning sign does not
    # hold, so the tick's pass is not contradicted (each read as contradicted before stop 33's breaker)
    assert _circumstances.contradicted(f"| Leverage | 85th | {cell} |", "PROCEED", (19, 20), "REJECT") is False


def test_factors_multiply() -> None:
    assert CIRCUMSTANCE_FACTORS == {"own-step": 0.8, "unsupported": 0.7, "contradicted": 0.6}
    assert circumstance_factor([]) == 1.0
    assert circumstance_factor(["own-step", "unsupported"]) == pytest.approx(0.8 * 0.7)


# --------------------------------------------------------------------------- on whole answers: confidence moves, reading not


@pytest.mark.parametrize(("text", "want", "plain_confidence"), [
    (STEPS, [(1, "PROCEED", 0.68), (2, "PROCEED", 0.68)], [0.85, 0.85]),  # 0.85 x 0.8 each
    (UNSUPPORTED, [(1, "PROCEED", 0.95), (2, "PROCEED", 0.665), (3, "INCONCLUSIVE", 0.95)], [0.95, 0.95, 0.95]),  # x0.7
    (NEIGHBOUR, [(1, "PROCEED", 0.85), (2, "PROCEED", 0.95)], [0.85, 0.95]),  # left out: unchanged
    (GAUGE, [(1, "PROCEED", 0.57), (3, "REJECT", 0.57), (5, "PROCEED", 0.898)], [0.95, 0.95, 0.898]),  # a bare tick kept
], ids=["own-step", "unsupported", "neighbouring-left-out", "contradicted"])
def test_a_shape_lowers_the_confidence_and_leaves_the_reading(text: str, want: list[tuple[int, str, float]],
                                                               plain_confidence: list[float],
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    card = GAUGE_CARD if text is GAUGE else BUFFETT
    parsed = parse_response(text, card, embedder=False)
    assert [(g.gate, g.verdict, g.confidence) for g in parsed.gates] == want
    assert all(g.runner_up is None for g in parsed.gates)  # no competing word: the factor alone moved it
    monkeypatch.setattr(_circumstances, "CIRCUMSTANCE_FACTORS", dict.fromkeys(CIRCUMSTANCE_FACTORS, 1.0))
    plain = parse_response(text, card, embedder=False)
    assert _without_confidence(plain) == _without_confidence(parsed)
    assert [g.confidence for g in plain.gates] == plain_confidence


def test_the_card_numbering_keeps_its_confidence() -> None:
    parsed = parse_response(STEPS.replace("Step", "Gate"), BUFFETT, embedder=False)
    assert [(g.gate, g.verdict, g.confidence) for g in parsed.gates] == [(1, "PROCEED", 0.85), (2, "PROCEED", 0.85)]
