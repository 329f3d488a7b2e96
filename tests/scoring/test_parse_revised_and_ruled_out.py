"""Two verdict phenomena of issue 13 (which statement wins; labels with answers), each with texts written for these tests.

- A gate restated after a revision under a label opening with "Revised" / "Updated" ("Revised drift gate: PROCEED") is
  the same gate: its later statement wins. Regression kind: the revised label named no gate, so the first, withdrawn
  verdict stood.
- A screen's adverse action ruled out in a gate's detail ("no divestment decided", "no exclusion recommended") is that
  gate's PROCEED, and it outranks a warning icon set before it. Regression kind: the icon's INCONCLUSIVE stood.
"""

from __future__ import annotations

import pytest

from ipb.scoring.parse import parse_response

REBALANCING = "dalio_all_weather_rebalancing"
NBIM = "nbim_gpfg_exclusion_screen"


@pytest.mark.parametrize("opening", ["Revised", "Updated", "Corrected"])
def test_a_revised_label_restates_its_gate(opening: str) -> None:
    text = ("Drift gate: REJECT, the largest gap is 3 points.\n\n"
            f"Later the covariance was re-estimated and the gap is 7 points. {opening} drift gate: PROCEED.\n\n"
            "Motive: the drift came from volatility, not a view. PROCEED.\n"
            "Implementation: 9 bp round trip, leverage 2.1x. PROCEED.\n\nREBALANCE.")
    parsed = parse_response(text, REBALANCING, embedder=False)
    assert [(g.gate, g.verdict) for g in parsed.gates] == [(1, "PROCEED"), (2, "PROCEED"), (3, "PROCEED")]


def test_a_revised_label_inside_an_update_paragraph_restates_its_gate() -> None:
    # the update paragraph opens with a label of its own ("Update after ...:"), which closes the first gate's section:
    # only the restating label ties the new verdict to the gate
    text = ("Drift check on the old covariance: largest gap 3 points. Drift gate: REJECT.\n\n"
            "Update after re-running the covariance on 90 days: largest gap 7 points. Revised drift gate: PROCEED.\n\n"
            "Motive: volatility moved, no market view. PROCEED.\nImplementation: 9 bp, leverage 2.1x. PROCEED.\n\nREBALANCE.")
    parsed = parse_response(text, REBALANCING, embedder=False)
    assert [(g.gate, g.verdict) for g in parsed.gates] == [(1, "PROCEED"), (2, "PROCEED"), (3, "PROCEED")]


@pytest.mark.parametrize("detail, verdict", [
    ("no divestment decided; the supply chain is on a watch list", "PROCEED"),
    ("no divestment was recommended after the review", "PROCEED"),
    ("divestment decided after the review", "INCONCLUSIVE"),  # not ruled out: the icon's reading stands
])
def test_an_adverse_action_ruled_out_is_the_gates_pass(detail: str, verdict: str) -> None:
    text = ("\u2705 Universe: listed equity\n\u2705 Product criteria: no coal or tobacco\n"
            f"\u26a0\ufe0f Risk-based divestment: {detail}\n\nHOLD.")
    parsed = parse_response(text, NBIM, embedder=False)
    assert dict((g.gate, g.verdict) for g in parsed.gates)[4] == verdict


def test_a_ruled_out_action_in_a_conclusion_is_no_gate_verdict() -> None:
    # after the final label, the phrase states nothing about a gate
    text = "Gate 1: PROCEED.\nGate 2: PROCEED.\n\nFinal verdict: HOLD, no exclusion recommended."
    parsed = parse_response(text, NBIM, embedder=False)
    assert [(g.gate, g.verdict) for g in parsed.gates] == [(1, "PROCEED"), (2, "PROCEED")] and parsed.final_verdict == "HOLD"


SMITH = "tests/fixtures/new_user13/cards/smith_fundsmith_three_rules.yaml"
_REVISED_ANSWER = ("Gate 1 - Buy Good Companies: ROCE 28% vs 15% floor and gross margin 48.45% vs 40%. PROCEED.\n\n"
                   "Gate 2 - Don't Overpay: the FCF yield is 2.5% against a bond yield of 4.2%. PROCEED.\n\n"
                   "Hmm, wait - I had that backwards. A 2.5% yield is BELOW the 4.2% bond yield. {revision}\n\n"
                   "Gate 3 - Do Nothing: N/A, the analysis stops at gate 2.\n\nFinal verdict: AVOID.")


@pytest.mark.parametrize("revision", [
    "Correcting gate 2: REJECT.",  # the new user's answer (fixtures/new_user13/answers/a05_revision.txt): read PROCEED
    "To correct gate 2: REJECT.",
    "Correcting myself: gate 2 is REJECT.",
    "To correct myself, gate 2 is REJECT.",
    "Correction: gate 2: REJECT.",  # already read: the other revision words
    "Corrected gate 2: REJECT.",
])
def test_correcting_revises_a_gate_like_revised(revision: str) -> None:
    """Regression (revision vocabulary): "Correcting gate 2: REJECT" after "... PROCEED" kept the withdrawn PROCEED;
    "correcting" / "to correct" revise as "revised" / "correction" do, and the later committed verdict wins."""
    parsed = parse_response(_REVISED_ANSWER.format(revision=revision), SMITH, embedder=False)
    assert [(g.gate, g.verdict) for g in parsed.gates] == [(1, "PROCEED"), (2, "REJECT"), (3, "N/A")]
    assert parsed.final_verdict == "AVOID"


@pytest.mark.parametrize("revision", [
    "Correcting my verdict: AVOID.", "Correcting the final verdict: AVOID.", "To correct my final verdict: AVOID.",
    "Correction: AVOID.",
])
def test_correcting_the_final_verdict_wins_over_the_earlier_one(revision: str) -> None:
    text = f"Gate 1: PROCEED.\n\nGate 2: PROCEED.\n\nFinal verdict: BUY.\n\n{revision}"
    assert parse_response(text, SMITH, embedder=False).final_verdict == "AVOID"


def test_a_final_verdict_without_a_correction_stays() -> None:
    # "correct" as an adjective or a market move is no revision: the verdict stated as final stays
    text = "Gate 1: PROCEED.\n\nGate 2: PROCEED.\n\nFinal verdict: BUY. The correct call is to wait for the price to correct: AVOID now."
    assert parse_response(text, SMITH, embedder=False).final_verdict == "BUY"
