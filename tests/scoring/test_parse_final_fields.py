"""The final verdict in answers written by others (issue 13, "final-verdict-wild" and "layout"; paper §7.5).

Each test pins one rule a human reader uses to find the writer's final verdict,
on answers written for these tests (never corpus copies). Every expected value
was worked by hand against the bundled card.
"""

from __future__ import annotations

from ipb.scoring.parse import parse_response

MACHINE = "dalio_economic_machine_positioning"  # pass TILT, fail HOLD_BALANCED_MIX; branch outcomes TILT_TO_...


def _final(text: str, card: str) -> str | None:
    return parse_response(text, card, embedder=False).final_verdict


# ---------------------------------------------------------------- JSON-ish fields are labels


def test_a_quoted_json_field_labels_its_outcome_value() -> None:
    # a rating word earlier in the object must not outrank the field that names the branch outcome
    text = ('{\n  "stance": "bullish",\n  "positioning": "TILT_TO_INFLATION_LINKED_BONDS_AND_GOLD",\n'
            '  "why": "growth is falling and inflation rising against what is priced."\n}')
    assert _final(text, MACHINE) == "TILT_TO_INFLATION_LINKED_BONDS_AND_GOLD"


def test_a_single_quoted_field_is_a_label_as_well() -> None:
    # the lower-case outcome is the writer's choice because it is the value of a field on its own line
    text = "{\n 'view': 'bullish',\n 'allocation': 'hold_balanced_mix',\n 'note': 'no quadrant is clear yet.'\n}"
    assert _final(text, MACHINE) == "HOLD_BALANCED_MIX"
