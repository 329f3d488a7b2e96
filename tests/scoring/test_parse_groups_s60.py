"""Gates found without a verdict, by where the verdict the parser missed sits (issue 13, stop 60).

Every answer here is written for this test, in my own words, about made-up companies. Each test names the layout or
language phenomenon it pins down and fails without the change that reads it:

- a final verdict stated as the writer's act ("So I bought a starter position this morning") reads at the lowest
  commitment level (confidence 0.45), and under a conjunction card it still clears every gate the writer discussed
  (:mod:`ipb.scoring.parse._entailed`, ``MIN_FINAL_CONFIDENCE``);
- a table column whose header asks a yes / no question about an approving or a failing state ("Favourable?", "OK?",
  "Sell trigger fired?") answers it per row (:mod:`ipb.scoring.parse._question_columns`);
- a JSON field named by the approving state ("favourable": false, "posture_fits": true) holds the gate's verdict;
- a gate's own noun said of the case as a predicate ("That's a moat.", "It doesn't have a moat.") is its verdict
  (:mod:`ipb.scoring.parse._affirmed`).
"""

from __future__ import annotations

import doctest
import importlib
import re
import time

import pytest
from ipb.engine.registry import compiled_card
from ipb.scoring.parse import parse_response
from ipb.scoring.parse._entailed import ENTAILED_FACTOR
from ipb.scoring.parse._affirmed import predicated_verdict
from ipb.scoring.parse._question_columns import APPROVAL_KEY, question_polarity

SPINOFF = "greenblatt_spinoff_checklist"  # conjunction: INVEST / DECLINE
BUFFETT = "buffett_acquisition_checklist"  # conjunction, six gates
REVIEW = "lynch_portfolio_story_review"  # disjunction of sell triggers


def _parse(text: str, card: str):
    return parse_response(text, compiled_card(card).card, embedder=False)


def _gates(text: str, card: str) -> dict[int, str | None]:
    return {g.gate: g.verdict for g in _parse(text, card).gates}


# --------------------------------------------------------------------------- an act as the final verdict entails the gates

FACTS = ("Institutional indifference: the spun-off unit is a tenth of the parent and pays nothing, so index funds must "
         "dump it.\n\nInsider incentives: the new CEO holds 4% and took options instead of salary.\n\n")


def test_a_buy_stated_as_the_writers_act_clears_the_gates_it_discussed() -> None:
    parsed = _parse(FACTS + "So I bought a starter position this morning.\n", SPINOFF)
    assert parsed.final_verdict == "INVEST" and parsed.final_confidence == pytest.approx(0.45)
    assert [(g.gate, g.verdict) for g in parsed.gates] == [(1, "PROCEED"), (2, "PROCEED")]
    for g in parsed.gates:  # marked as entailed, at the act's low confidence: review can still pick it out
        assert g.how.endswith("+entailed") and g.verdict_span is None
        assert g.confidence == pytest.approx(ENTAILED_FACTOR * 0.45, abs=1e-3) == pytest.approx(0.27)


def test_a_modal_maybe_states_no_final_verdict_and_entails_nothing() -> None:
    """Guard: "I might invest" commits to nothing, so nothing is entailed."""
    parsed = _parse(FACTS + "I might invest.\n", SPINOFF)
    assert parsed.final_verdict is None
    assert all(g.verdict is None for g in parsed.gates)


def test_an_act_of_selling_entails_no_gate_verdict() -> None:
    """Guard: a fail outcome says only that some gate failed, whichever it was."""
    parsed = _parse(FACTS + "So I sold the rest of it this morning and walked away.\n", SPINOFF)
    assert parsed.final_verdict != "INVEST"
    assert all(g.verdict is None for g in parsed.gates)


# --------------------------------------------------------------------------- yes / no columns under a question header


@pytest.mark.parametrize("header", ["Favourable?", "OK?", "Criterion OK?", "Fits the bar?", "Acceptable?", "Within the limit?"])
def test_a_column_asking_for_the_approving_state_reads_yes_as_proceed(header: str) -> None:
    text = (f"| Criterion | What we found | {header} |\n|---|---|---|\n"
            "| Circle of competence | frozen desserts, two brands | Yes |\n"
            "| Economic moat | gross margin down from 44% to 38% | No |\n\nVerdict: DECLINE\n")
    gates = _gates(text, BUFFETT)
    assert gates[1] == "PROCEED" and gates[2] == "REJECT"


def test_a_column_asking_whether_a_sell_trigger_fired_reads_yes_as_reject() -> None:
    text = ("| Check | Facts | Sell trigger fired? |\n|---|---|---|\n"
            "| Story broken or fundamentals deteriorated | growth 14% against 15% when bought | No |\n"
            "| P/E far above the growth rate | P/E 61 against 6% growth | Yes |\n\nDecision: SELL\n")
    gates = _gates(text, REVIEW)
    assert gates[1] == "PROCEED" and gates[2] == "REJECT"


@pytest.mark.parametrize("header, polarity", [
    ("Favourable?", "pass"), ("OK", "pass"), ("Sell signal?", "fail"), ("Thesis intact?", "pass"),
    ("Loop back?", None), ("Signal", None), ("Notes", None), ("x" * 70 + " OK?", None),
])
def test_question_polarity_names_only_approving_or_failing_questions(header: str, polarity: str | None) -> None:
    assert question_polarity(header) == polarity


# --------------------------------------------------------------------------- JSON fields named by the approving state


def test_a_json_field_named_favourable_gives_each_lens_its_verdict() -> None:
    text = ('```json\n{"checks": [\n'
            ' {"name": "Circle of competence", "favourable": true, "why": "two brands, simple product"},\n'
            ' {"name": "Economic moat", "favourable": false, "why": "margins sliding to private label"}\n'
            '], "decision": "DECLINE"}\n```\n')
    gates = _gates(text, BUFFETT)
    assert gates[1] == "PROCEED" and gates[2] == "REJECT"


def test_a_fact_field_still_states_no_verdict() -> None:
    """Guard: a key that is neither a verdict word nor an approving state ("is_cyclical") stays a fact."""
    text = ('```json\n{"checks": [\n'
            ' {"name": "Economic moat", "is_cyclical": true, "why": "margins sliding to private label"}\n'
            '], "decision": "DECLINE"}\n```\n')
    assert _gates(text, BUFFETT).get(2) is None


# --------------------------------------------------------------------------- the gate's noun as a predicate of the case

MOAT_FACTS = ("Clients almost never move their payroll elsewhere, and a 74% gross margin lets the firm lift fees each year. {}\n\n"
              "Price: $9.4B against my value of $11.2B; I want 75% of value at most. Margin of safety: REJECT.\n\nDECISION: WATCH\n")


@pytest.mark.parametrize("sentence, verdict", [
    ("That's a moat.", "PROCEED"),
    ("That is a real moat.", "PROCEED"),
    ("It has a moat.", "PROCEED"),
    ("That's no moat.", "REJECT"),
    ("It doesn't have a moat.", "REJECT"),
])
def test_the_gates_noun_said_of_the_case_is_its_verdict(sentence: str, verdict: str) -> None:
    parsed = _parse(MOAT_FACTS.format(sentence), BUFFETT)
    moat = next(g for g in parsed.gates if g.gate == 2)
    assert moat.verdict == verdict and moat.how.endswith("+predicated") and moat.verdict_span is None
    assert moat.confidence <= 0.55


@pytest.mark.parametrize("sentence", ["If it has a moat, fine.", "That's a moat question for later.", "Is that a moat?",
                                      "It would have a moat."])
def test_a_condition_a_question_or_an_unclosed_noun_states_no_verdict(sentence: str) -> None:
    """Guard: the frame counts only as a statement about the case, with the noun closing its clause."""
    assert _gates(MOAT_FACTS.format(sentence), BUFFETT).get(2) is None


# --------------------------------------------------------------------------- the new patterns stay linear on long inputs


def _cpu(fn) -> float:
    start = time.process_time()
    fn()
    return time.process_time() - start


@pytest.mark.parametrize("size", [20_000, 200_000])
def test_the_new_patterns_cost_about_what_tokenising_the_input_costs(size: int) -> None:
    """A long run of spaces (or of frame words) before and after the noun: the frame is looked for in a window of
    WINDOW characters, the closing and condition checks run once each, and a header is capped; so the cost grows with
    the input no faster than one pass of a plain tokeniser (a ratio of two CPU times in one run, never seconds)."""
    spaces = " " * size
    frames = "that's a " * (size // 9)
    token = re.compile(r"\S+")

    def new() -> None:
        predicated_verdict(frames + spaces, spaces + ".")
        predicated_verdict("it has a" + spaces, "," + spaces + "if")
        question_polarity("ok " * (size // 3) + "?")
        APPROVAL_KEY.search("x_" * (size // 2) + "favourable")

    def tokenise() -> None:
        for text in (frames + spaces, spaces + ".", "ok " * (size // 3), "x_" * (size // 2)):
            token.findall(text)

    assert _cpu(new) < 20 * max(_cpu(tokenise), 1e-3)


@pytest.mark.parametrize("name", ["ipb.scoring.parse._affirmed", "ipb.scoring.parse._question_columns"])
def test_the_new_modules_examples_run(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0 and result.attempted > 0
