"""s59groups: gates found without a verdict because the verdict's words were missing or its block was split.

Each answer is written for this test. Without the change: the Dutch, Czech and Greek "not reached / not assessed"
marks read no verdict (None), Greek capitals read none, and the Gherkin scenarios lose their ``Then`` verdicts.
"""

from __future__ import annotations

import re
import time

from ipb.scoring._foreign_verdicts import caps_greek
from ipb.scoring.parse import parse_response
from ipb.scoring.parse._spec_blocks import _SPEC_KEYWORD, _STEP


def _verdicts(text: str, card: str) -> dict[int, str | None]:
    return {g.gate: g.verdict for g in parse_response(text, card, embedder=False).gates}


# ----------------------------------------------------------------- a word the vocabulary lacked: "not reached"


def test_dutch_step_not_reached_is_na() -> None:
    text = ("Stap 1 – Begrijpelijk bedrijf: VOLDAAN\n"
            "Stap 2 – Duurzaam voordeel: NIET VOLDAAN\n"
            "Stap 3 – Prijs: NIET BEREIKT\n")
    got = _verdicts(text, "buffett_acquisition_checklist")
    assert got[1] == "PROCEED" and got[3] == "N/A"


def test_czech_not_assessed_is_na() -> None:
    text = ("**Brána 1 – Cena: SPLNĚNO**\n"
            "**Brána 2 – Struktura: NESPLNĚNO**\n"
            "**Brána 3 – Výnos: NEHODNOCENO**\n"
            "**Brána 4 – Proces: NEPOSUZUJE SE**\n")
    assert _verdicts(text, "marks_distressed_debt") == {1: "PROCEED", 2: "REJECT", 3: "N/A", 4: "N/A"}


def test_greek_capitals_drop_the_tonos() -> None:
    assert caps_greek("δεν εξετάζεται") == "δεν εξεταζεται"
    assert caps_greek("ΐ") == "ϊ"  # the dialytika stays
    text = ("Πύλη 1 – Φάση του κύκλου χρέους: ΑΠΟΡΡΙΠΤΕΤΑΙ\n\n"
            "Πύλη 2 – Τοποθέτηση ανάλογα με τη φάση: ΔΕΝ ΕΞΕΤΑΖΕΤΑΙ\n")
    assert _verdicts(text, "dalio_debt_supercycle_navigation") == {1: "REJECT", 2: "N/A"}


# ----------------------------------------------------------------- Gherkin: one scenario per gate


_GHERKIN = """Review written as a specification.

```gherkin
Feature: portfolio check

  Background:
    Given the policy stock share is 50%

  Scenario: Gate 1 - Stock-Bond Allocation Within 25% to 75%
    Given a stock share of 60%
    Then the gate verdict is PROCEED

  Scenario: Gate 2 - Mix Kept at Its Chosen Proportion
    Given a drift of 10 points against a 5-point band
    Then the gate verdict is REJECT

  Scenario: Gate 3 - High-Grade Bond Component
    Given only treasury bonds are held
    Then the gate verdict is PROCEED

  Scenario: Gate 4 - Adequate but Not Excessive Diversification
    Given 14 issues are held
    Then the gate verdict is PROCEED

  Scenario: Gate 5 - Large, Prominent and Conservatively Financed Companies
    Given every company has sales above $500M
    Then the gate verdict is PROCEED

  Scenario: Gate 6 - Long Record of Continuous Dividends
    Given the shortest dividend record is 31 years
    Then the gate verdict is PROCEED
```

Final verdict: REVISE
"""


def test_gherkin_scenarios_each_read_as_their_gate() -> None:
    got = _verdicts(_GHERKIN, "graham_defensive_portfolio_selection")
    assert got == {1: "PROCEED", 2: "REJECT", 3: "PROCEED", 4: "PROCEED", 5: "PROCEED", 6: "PROCEED"}


def test_a_plain_label_is_not_a_spec_keyword() -> None:
    # "Checklist:" and "Casework:" are no test-spec keywords (the whole label must be one)
    assert _SPEC_KEYWORD.fullmatch("Checklist") is None and _SPEC_KEYWORD.fullmatch("Case study") is None
    assert _SPEC_KEYWORD.fullmatch("Scenario Outline") is not None


def test_spec_patterns_are_linear_on_long_inputs() -> None:
    long = "Given " + "a " * 200_000 + "!"
    started = time.perf_counter()
    _STEP.match(long)
    _SPEC_KEYWORD.fullmatch("scenario " * 50_000)
    re.compile(_SPEC_KEYWORD.pattern).search("test " * 50_000 + "x")
    assert time.perf_counter() - started < 1.0
