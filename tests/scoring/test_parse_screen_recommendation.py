"""'Recommendation: PASS' on a screen whose tests are marked PASS / FAIL (issue 13, stop 33 breaker; paper §7.5).

Since stop 33 a recommendation's "PASS", in any case, is the decline on a buy decision (the venture investor's "we
pass"). Beside a screen's own result field reading PASS ("Screen result: PASS") and no test marked FAIL, the answer
uses the word for the screen met, so its "Recommendation: PASS" is the screen passed; with a test marked FAIL the
screen cannot pass and "PASS" stays the decline; without a screen field the decline reading stands.
The texts are written for these tests.
"""

from __future__ import annotations

from ipb.scoring.parse import parse_response

GRAHAM7 = "graham_seven_tests_defensive"  # outcomes INVEST / DECLINE

_CLEAN = ("1. Adequate Size of the Enterprise: PASS, revenue $9bn.\n"
          "2. Sufficiently Strong Financial Condition: PASS, current ratio 2.4.\n"
          "3. Earnings Stability: PASS, no loss in ten years.\n")


def _final(text: str) -> str | None:
    return parse_response(text, GRAHAM7, embedder=False).final_verdict


def test_a_screen_of_passes_recommended_pass_is_the_screen_passed() -> None:
    assert _final(_CLEAN + "\nScreen result: PASS\nRecommendation: PASS\n") == "INVEST"


def test_an_agents_json_screen_of_passes_is_no_decline() -> None:
    text = ('{"tests": [{"name": "Adequate Size of the Enterprise", "result": "PASS"}], "screen_result": "PASS", '
            '"recommendation": "PASS"}')
    assert _final(text) != "DECLINE"


def test_with_a_test_failed_recommendation_pass_is_still_the_decline() -> None:
    text = _CLEAN + "6. Moderate Price/Earnings Ratio: FAIL, 31x earnings.\n\nScreen result: PASS\nRecommendation: PASS.\n"
    assert _final(text) == "DECLINE"


def test_a_recommendation_pass_in_sentence_case_is_the_decline() -> None:
    # no PASS marks in capitals: the venture reading stands
    text = ("1. Adequate Size of the Enterprise: met, revenue $9bn.\n2. Earnings Stability: met.\n\n"
            "Recommendation: Pass.\n")
    assert _final(text) == "DECLINE"
