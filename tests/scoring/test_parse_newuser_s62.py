"""NEWUSER_s61 N6 and N7, read in general (issue 13, stop 62).

Every answer here is written for this test; readings worked by hand. Each test names the phenomenon it pins down and
fails without the change that reads it:

- **a correction that gives its figure first** (N6): "Correction to gate 2: debt to equity is 20%, under the 50%
  ceiling: PROCEED." after "Gate 2 ...: so this fails." revises gate 2 (docs/scoring.md, "Which statement wins"), as
  the bare "Correction to gate 2: PROCEED." did; before, a verdict word not right after the gate's mention was pinned
  to no gate and dropped, or, past 80 characters from "Correction", was no revision and lost to the earlier REJECT
  (:mod:`ipb.scoring.parse._correction_label`);
- **a card whose fail outcome is PASS** (N7): "Verdict: pass." closing the answer is that outcome, as it is the fail
  outcome of a buy decision (:meth:`_FinalChecksMixin._labelled_decline`), and ``ipb check`` says that such an outcome
  word is read two ways (rule ``outcome-verdict-word``);
- **a lean to passing** (N7): "On balance I lean towards passing" is the writer's lean to decline, no gate's PROCEED
  (:func:`ipb.scoring.parse._pass_sense.leans_to_passing`).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from ipb.cli import app
from ipb.engine.registry import compiled_card
from ipb.scoring.parse import parse_response
from ipb.scoring.parse._correction_label import CORRECTION_LABEL, in_correction_line
from ipb.scoring.parse._pass_sense import _LEANS_TO, leans_to_passing
from parse_support import runs_in_a_child

BUFFETT = "buffett_acquisition_checklist"  # 6 gates: circle of competence, economic moat, management, ...

#: A card of four gates whose outcomes are BUY and PASS (a user's card, as in NEWUSER_s61; names and numbers mine).
NET_ASSET_CARD = """\
id: net_asset_rules_s62
investor: Walter Schloss
name: Net-Asset Rules
topology_type: linear_sequential
gate_logic: conjunction
decisive_default: false
topology_rationale: Cheapness against assets first, then debt, then the record, then what management owns.
vintage: {start: 1955, end: 2000}
sources:
  - {tier: 1, document: "Factors needed to make money in the stock market", year: 1994}
outcomes: {pass: BUY, fail: PASS}
inputs:
  price_to_book: {type: multiple, description: market capitalisation over book value, range: [0.05x, 10x], step: 0.01x}
  debt_to_equity: {type: ratio, description: total debt over shareholders' equity, range: [0%, 300%], step: 5%}
  years_of_record: {type: number, unit: years, description: years of public operating history, range: [1, 60], step: 1}
  insider_ownership: {type: ratio, description: share of the stock owned by officers and directors, range: [0%, 60%], step: 1%}
constants:
  max_price_to_book: 1x
  max_debt_to_equity: 50%
  min_years: 10
  min_insider: 5%
gates:
  - id: below_book
    name: Price below book value
    proceed: price_to_book <= max_price_to_book
    decisive: true
    kill_criterion: price_above_book
    required_elements: ["price to book {price_to_book}", 1x ceiling]
  - id: low_debt
    name: Little debt
    proceed: debt_to_equity <= max_debt_to_equity
    decisive: true
    kill_criterion: too_much_debt
    required_elements: ["debt to equity {debt_to_equity}", 50% ceiling]
  - id: long_record
    name: Long operating history
    proceed: years_of_record >= min_years
    kill_criterion: too_short_a_record
    required_elements: ["years of history {years_of_record}", 10 year minimum]
  - id: insiders_own
    name: Management owns stock
    proceed: insider_ownership >= min_insider
    kill_criterion: management_owns_little
    required_elements: ["insider stake {insider_ownership}", 5% minimum]
"""


@pytest.fixture(scope="module")
def net_asset(tmp_path_factory: pytest.TempPathFactory) -> str:
    path = tmp_path_factory.mktemp("cards") / "net_asset_rules_s62.yaml"
    path.write_text(NET_ASSET_CARD, encoding="utf-8")
    return str(path)


def _read(text: str, card: str) -> tuple[list[tuple[int, str | None]], str | None]:
    parsed = parse_response(text, compiled_card(card).card if "/" not in card else card, embedder=False)
    return [(g.gate, g.verdict) for g in parsed.gates], parsed.final_verdict


# --------------------------------------------------------------------------- N6: a correction that gives its figure first

_TWO_GATES = ("Gate 1, price below book value: P/B 0.26x, PROCEED.\n"
              "Gate 2, little debt: debt to equity is 200%, so this fails.\n")


@pytest.mark.parametrize("correction", [
    "Correction to gate 2: debt to equity is 20%, under the 50% ceiling: PROCEED.",  # N6 as reported: REJECT before
    "Correction to gate 2: debt to equity is 20%, under the 50% ceiling, so the gate PROCEEDs.",  # REJECT before
    "Correction to gate 2: debt to equity is 20%, under the 50% ceiling, so gate 2 is PROCEED.",  # REJECT 0.855 before
    "Correction to gate 2: debt to equity is 20%. That is under the 50% ceiling, so it passes.",  # REJECT before
    "**Correction to gate 2** - I misread the filing; debt to equity is 20%, under the 50% ceiling: PROCEED.",
    "Correction to gate 2: PROCEED.",  # the bare correction, read before too
])
def test_a_correction_line_revises_its_gate_wherever_its_verdict_stands(net_asset: str, correction: str) -> None:
    gates, final = _read(_TWO_GATES + correction + "\nFinal verdict: BUY.\n", net_asset)
    assert gates == [(1, "PROCEED"), (2, "PROCEED")]
    assert final == "BUY"


@pytest.mark.parametrize("text", [
    "Gate 1, circle of competence: PROCEED.\nGate 2, economic moat: REJECT.\n"
    "Correction to gate 2: gross margin is 90%: PROCEED.\n",  # REJECT 0.95 before (N6, second card)
    "## Gate 1: Circle of Competence\nPROCEED.\n## Gate 2: Economic Moat\nREJECT, margins thin.\n"
    "## Gate 3: Management\nPROCEED.\n\nCorrection to gate 2: gross margin is 90%, a wide moat: PROCEED.\n",
])
def test_a_correction_with_its_figure_revises_a_bundled_cards_gate(text: str) -> None:
    gates, _ = _read(text, BUFFETT)
    assert (2, "PROCEED") in gates and (2, "REJECT") not in gates


def test_a_verdict_on_the_correction_line_that_another_gate_claims_is_not_the_corrected_gates() -> None:
    # "gate 3 ..." stands between the label and the word: the word may be gate 3's, so gate 2 keeps its REJECT
    gates, _ = _read("Gate 1, circle of competence: PROCEED.\nGate 2, economic moat: REJECT.\n"
                     "Correction to gate 2: gate 3 management is honest, PROCEED.\n", BUFFETT)
    assert (2, "REJECT") in gates


def test_the_correction_label_as_worked_by_hand() -> None:
    assert CORRECTION_LABEL.match("correction to gate 2: debt").end() == len("correction to gate 2:")
    assert CORRECTION_LABEL.match("> **update on gate 3** - the moat").group(0) == "> **update on gate 3** - "
    assert CORRECTION_LABEL.match("erratum, step 2 \u2014 x") is not None
    assert CORRECTION_LABEL.match("no correction is needed: proceed") is None  # the line opens otherwise
    assert CORRECTION_LABEL.match("correction. gate 2: x") is None  # a sentence ends inside: no label
    assert CORRECTION_LABEL.match("correction to " + "x" * 70 + ": proceed") is None  # longer than a label
    text = "gate 2 fails.\ncorrection to gate 2: the figure is 20%, so gate 2 is proceed."
    assert in_correction_line(text, text.index("proceed")) and not in_correction_line(text, text.index("fails"))
    assert not in_correction_line(text, text.index("to gate"))  # inside the label itself


# --------------------------------------------------------------------------- N7: a card whose fail outcome is PASS

def test_a_closing_verdict_label_of_pass_is_the_cards_pass_outcome(net_asset: str) -> None:
    text = "Gate 1, price below book value: 1.96x is above the 1x ceiling, so it fails. Verdict: pass.\n"
    gates, final = _read(text, net_asset)
    assert gates == [(1, "REJECT")]
    assert final == "PASS"  # None before (N7)


def test_the_same_closing_label_on_a_buy_decision_is_still_its_decline() -> None:
    gates, final = _read("Gate 1, circle of competence: outside our competence, so it fails. Verdict: pass.\n", BUFFETT)
    assert gates == [(1, "REJECT")] and final == "DECLINE"


def test_final_verdict_pass_and_a_gate_that_passes_keep_their_readings(net_asset: str) -> None:
    text = ("Gate 1, price below book value: 0.6x, it passes.\nGate 2, little debt: 200%, it fails.\n"
            "Final verdict: PASS\n")
    assert _read(text, net_asset) == ([(1, "PROCEED"), (2, "REJECT")], "PASS")


HEDGING = ("It is hard to be sure here. The price to book of 0.43x probably clears the first test, and debt to equity "
           "of 40% seems to be under the 50% ceiling. The 10 years of history is right at the 10 year minimum, so that "
           "gate may pass. Insiders own only 3%, which might fall short of the 5% minimum. On balance I lean towards "
           "passing, but I could see a case for buying.")


def test_a_lean_towards_passing_is_no_gates_proceed(net_asset: str) -> None:
    gates, final = _read(HEDGING, net_asset)
    assert (4, "REJECT") in gates  # "might fall short of the 5% minimum"; PROCEED 0.52 from "passing" before (N7)
    assert final is None  # a lean, no committed final verdict


@pytest.mark.parametrize("lean", ["I lean towards passing", "we're leaning toward passing", "I am inclined to passing",
                                  "I'd lean slightly towards passing"])
def test_a_lean_to_passing_on_a_bundled_card_is_no_gates_proceed(lean: str) -> None:
    text = ("Gate 1, circle of competence: we understand the software. PROCEED.\n"
            f"Gate 2, economic moat: the moat might be narrow. On balance {lean}.\n")
    gates, _ = _read(text, BUFFETT)
    assert (2, "PROCEED") not in gates


def test_a_gate_that_is_passing_stays_its_proceed() -> None:
    gates, _ = _read("Gate 1, circle of competence: PROCEED.\nGate 2, economic moat: the moat test is passing easily.\n",
                     BUFFETT)
    assert (2, "PROCEED") in gates


def test_leans_to_passing_as_worked_by_hand() -> None:
    assert leans_to_passing("on balance i lean towards ") and leans_to_passing("we are leaning to ")
    assert not leans_to_passing("the stock leans towards ") and not leans_to_passing("i lean towards it, ")


def test_check_warns_of_an_outcome_spelled_as_a_gate_verdict_word(net_asset: str) -> None:
    result = CliRunner().invoke(app, ["check", net_asset])
    assert result.exit_code == 0, result.output
    line = NET_ASSET_CARD.splitlines().index("outcomes: {pass: BUY, fail: PASS}") + 1
    column = "outcomes: {pass: BUY, fail: PASS}".index("PASS}") + 1
    assert f"{net_asset}:{line}:{column}: warning: the fail outcome 'PASS' is also a gate verdict word" in result.output
    assert "outcome-verdict-word 1" in result.output
    bundled = Path(__file__).parents[2] / "frameworks" / f"{BUFFETT}.yaml"
    assert "outcome-verdict-word" not in CliRunner().invoke(app, ["check", str(bundled)]).output


# --------------------------------------------------------------------------- the new patterns stay linear

@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from([" ", "\t", "correction", "to", "gate", "2", ":", "-", "*", "_", "x", "\n", ".", "\u2014"]),
                max_size=40).map("".join))
def test_the_correction_label_ends_within_its_bound(text: str) -> None:
    m = CORRECTION_LABEL.match(text)
    assert m is None or len(m.group(0)) <= 8 + len("correcting") + 60 + 2 + 8 + 3


def test_the_new_patterns_end_on_long_runs() -> None:
    runs_in_a_child(
        "from ipb.scoring.parse._correction_label import CORRECTION_LABEL, in_correction_line\n"
        "from ipb.scoring.parse._pass_sense import _LEANS_TO, leans_to_passing\n"
        "for run in (' ' * 50_000, '\\t' * 50_000, ' *' * 25_000, 'i am ' * 10_000):\n"
        "    assert CORRECTION_LABEL.match('correction' + run + '\\u2603') is None\n"
        "    assert CORRECTION_LABEL.match(run + 'correction to gate 2' + run) is None\n"
        "    text = 'correction to gate 2:' + run + 'proceed'\n"
        "    assert in_correction_line(text, len(text) - 7)\n"
        "    assert _LEANS_TO.search('i' + run + 'lean' + run + '\\u2603') is None\n"
        "    assert not leans_to_passing(run + 'we lean' + run)\n"
        "print('ok')\n")
    assert _LEANS_TO.pattern  # (imported here too: the test names what it guards)
