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
