"""Regressions for the misreads the s32break review left open (issue 13, stop 33), each on texts written here.

Bug kinds pinned: a verb telling what someone else did taken for the gate's verdict; a gate excepted from "all gates
pass"; a lean the writer then leaves taken for the final verdict; a hedged final verdict read at full confidence; an
umbrella label whose bracket names two gates; a refused label ("I cannot say it fails") read as the opposite verdict;
a status icon and a Verdict cell of one table row taken for a choice offered.
"""

from __future__ import annotations

import pytest

from ipb.scoring.parse import parse_response
from ipb.scoring.parse._confidence import HEDGED_FACTOR, hedged_final

BUFFETT = "buffett_acquisition_checklist"
GRAHAM = "graham_seven_tests_defensive"
NAMES = ["Circle of Competence", "Economic Moat", "Management Integrity", "Intrinsic Value Estimation", "Margin of Safety",
         "Holding Period Economics"]


def gates(text: str, card: str = BUFFETT) -> dict[int, str | None]:
    return {g.gate: g.verdict for g in parse_response(text, card, embedder=False).gates}


# --- a verb with its own subject is not the label's verdict -----------------------------------------------------

@pytest.mark.parametrize("text, gate, want", [
    ("Circle of Competence: Regulators rejected the merger twice, yet a retailer is simple to follow. Verdict: PROCEED.\n"
     "Margin of Safety: REJECT.\n", 1, "PROCEED"),
    ("Economic Moat: Two start-ups failed when they tried to undercut it. PROCEED.\nMargin of Safety: REJECT.\n", 2, "PROCEED"),
    ("Management Integrity: The auditors passed every filing, but the CEO hid a lawsuit. REJECT.\n", 3, "REJECT"),
    # the verb is the gate's when its subject is the gate, the writer or a pronoun for it
    ("Economic Moat: It fails: rivals copy the product within a year.\n", 2, "REJECT"),
    ("Margin of Safety: this test fails at $18B against $20B of value.\n", 5, "REJECT"),
    # a narrated verb that is the gate's only statement still counts
    ("Economic Moat: The brand passes the test of time.\n", 2, "PROCEED"),
])
def test_a_narrated_verb_yields_to_the_writers_verdict(text, gate, want):
    assert gates(text)[gate] == want


# --- "all gates pass except the fifth" ----------------------------------------------------------------------------

@pytest.mark.parametrize("text, want", [
    ("All six gates pass except the fifth, which fails.", {1: "PROCEED", 2: "PROCEED", 3: "PROCEED", 4: "PROCEED",
                                                          5: "REJECT", 6: "PROCEED"}),
    ("Every gate clears, except for the second and the sixth, which fail.",
     {1: "PROCEED", 2: "REJECT", 3: "PROCEED", 4: "PROCEED", 5: "PROCEED", 6: "REJECT"}),
    ("All gates except Margin of Safety pass. Margin of Safety fails.",
     {1: "PROCEED", 2: "PROCEED", 3: "PROCEED", 4: "PROCEED", 5: "REJECT", 6: "PROCEED"}),
])
def test_a_gate_excepted_from_a_quantifier_keeps_its_own_verdict(text, want):
    assert gates(text) == want


def test_an_exception_that_names_every_gate_excepts_none():
    # "except gates 1-6" would leave the quantifier nothing; the phrase is then no exception the reader can use
    read = gates("All six gates pass except the first, second, third, fourth, fifth and sixth.")
    assert set(read.values()) <= {"PROCEED", None}


# --- a lean left behind in the final verdict ------------------------------------------------------------------------

@pytest.mark.parametrize("final, want", [
    ("I was leaning INVEST, but DECLINE until the price falls.", "DECLINE"),
    ("tempted to say INVEST; still, DECLINE.", "DECLINE"),
    ("my first instinct was DECLINE, but INVEST.", "INVEST"),
    ("INVEST.", "INVEST"),
])
def test_a_lean_the_writer_leaves_is_not_the_final_verdict(final, want):
    text = "".join(f"Gate {i + 1} ({n}): PROCEED.\n" for i, n in enumerate(NAMES)) + f"Final verdict: {final}\n"
    assert parse_response(text, BUFFETT, embedder=False).final_verdict == want


# --- a hedged final verdict keeps its reading, at a lower confidence --------------------------------------------------

@pytest.mark.parametrize("final, hedged", [
    ("probably INVEST, though I am not sure.", True),
    ("INVEST (low conviction).", True),
    ("INVEST, I think.", True),
    ("INVEST.", False),
    ("INVEST. The moat is wide.", False),
])
def test_a_hedged_final_verdict_is_less_sure(final, hedged):
    text = "".join(f"Gate {i + 1} ({n}): PROCEED.\n" for i, n in enumerate(NAMES)) + f"Final verdict: {final}\n"
    parsed = parse_response(text, BUFFETT, embedder=False)
    assert parsed.final_verdict == "INVEST"
    # every gate PROCEED agrees with INVEST: 0.95 (AGREED_CONFIDENCE at level 4), times 0.75 when hedged = 0.7125
    assert parsed.final_confidence == (round(0.95 * HEDGED_FACTOR, 3) if hedged else 0.95)


def test_hedged_final_reads_the_sentence_only():
    t = "Verdict: DECLINE. Maybe the next quarter changes that."
    assert hedged_final(t, (0, 17), (9, 16)) is False
    assert hedged_final("Verdict: likely DECLINE.", (0, 24), (16, 23)) is True


# --- an umbrella label over two gates ----------------------------------------------------------------------------

def test_an_umbrella_label_whose_bracket_names_two_gates_gives_both_the_verdict():
    text = ("- Dividend Record: \u2713 PASS (27 years unbroken)\n"
            "- Price Discipline (P/E & P/B): \u2717 FAIL (P/E 24, P/B 3.1, product 74)\n")
    parsed = parse_response(text, GRAHAM, embedder=False)
    assert {g.gate: g.verdict for g in parsed.gates} == {4: "PROCEED", 6: "REJECT", 7: "REJECT"}
    assert parsed.invented_gates == []


def test_an_umbrella_whose_own_words_name_a_gate_is_that_gate():
    # "Dividend Record (20 years, unbroken)": the bracket is detail, not two gates
    read = gates("- Dividend Record (20 years & unbroken): \u2713 PASS\n", GRAHAM)
    assert read == {4: "PROCEED"}


# --- a refused label is no verdict either way --------------------------------------------------------------------

@pytest.mark.parametrize("line", [
    "Economic Moat: not a REJECT, but I would not call it a clear PROCEED either: INCONCLUSIVE.",
    "Economic Moat: I cannot say it fails, nor that it passes: INCONCLUSIVE.",
    "Economic Moat: I would never label it a pass, nor a fail; INCONCLUSIVE.",
])
def test_a_refused_label_yields_to_the_stated_inconclusive(line):
    assert gates(f"Circle of Competence: PROCEED.\n{line}\n")[2] == "INCONCLUSIVE"


def test_a_refused_label_alone_is_a_weak_lean_the_other_way():
    parsed = parse_response("Economic Moat: I would not call it a pass.\n", BUFFETT, embedder=False)
    (g,) = parsed.gates
    assert g.verdict == "REJECT" and g.confidence < 0.6


# --- a table row's icon and its Verdict cell ---------------------------------------------------------------------

def test_the_verdict_column_wins_over_a_status_icon_in_the_same_row():
    text = ("| Gate | Status | Verdict |\n|---|---|---|\n| Economic Moat | \u2705 | PROCEED |\n"
            "| Margin of Safety | \u2705 | REJECT |\n| Management Integrity | \u274c | PROCEED |\n")
    assert gates(text) == {2: "PROCEED", 5: "REJECT", 3: "PROCEED"}


def test_a_template_choice_between_words_is_still_no_verdict():
    assert gates("Margin of Safety: <PROCEED | REJECT>\nEconomic Moat: PROCEED\n").get(5) is None


# --- found by the stop-33 adversarial answers (bench/adversarial_parse.py), general causes ------------------------

def test_an_exception_by_name_may_take_an_article():
    read = gates("All seven tests are met except the dividend record, which fails (a cut in 2009).", GRAHAM)
    assert read == {1: "PROCEED", 2: "PROCEED", 3: "PROCEED", 5: "PROCEED", 6: "PROCEED", 7: "PROCEED", 4: "REJECT"}


def test_first_and_last_gates_may_leave_out_the_criterion_word():
    assert gates("The first two gates pass. The last four fail.") == {1: "PROCEED", 2: "PROCEED", 3: "REJECT",
                                                                       4: "REJECT", 5: "REJECT", 6: "REJECT"}
    # no verdict verb right after: "the last three years" names no gate
    assert 4 not in gates("Circle of Competence: PROCEED. The last three years were hard.")


@pytest.mark.parametrize("line, want", [
    ("Economic Moat: a clear PASS... not. Rivals copy it within a year.", "REJECT"),
    ("Economic Moat: FAIL\u2026 not!", "PROCEED"),
    ("Economic Moat: PASS... not that anyone doubted it.", "PROCEED"),
])
def test_a_denial_tacked_on_after_a_pause_negates_the_word(line, want):
    assert gates(f"Circle of Competence: PROCEED.\n{line}\n")[2] == want


def test_a_table_cell_naming_two_gates_gives_both_the_rows_verdict():
    text = "| Gate | Verdict |\n|---|---|\n| Circle of Competence, Economic Moat | PROCEED |\n| Margin of Safety | REJECT |\n"
    assert gates(text) == {1: "PROCEED", 2: "PROCEED", 5: "REJECT"}


def test_an_umbrella_row_in_a_table_gives_both_gates_the_rows_verdict():
    text = "| Test | Result |\n|---|---|\n| Dividend Record | PASS |\n| Valuation (P/E & P/B) | FAIL |\n"
    parsed = parse_response(text, GRAHAM, embedder=False)
    assert {g.gate: g.verdict for g in parsed.gates} == {4: "PROCEED", 6: "REJECT", 7: "REJECT"}
    assert parsed.invented_gates == []


def test_spelled_gate_numbers_in_a_range_or_list():
    assert gates("Gates one to three pass; gates four through six fail.") == {1: "PROCEED", 2: "PROCEED", 3: "PROCEED",
                                                                              4: "REJECT", 5: "REJECT", 6: "REJECT"}
    assert gates("Steps two and five: REJECT.") == {2: "REJECT", 5: "REJECT"}
    # "tests" is no gate word for spelled numbers: "tests one and two" stays unread on a card of gates
    assert gates("Circle of Competence: PROCEED. Tests one and two were run last year.") == {1: "PROCEED"}


# --- a refused word's reach ends where the writer draws a conclusion (stop 33 review of the rule above) ------------
@pytest.mark.parametrize("text, gate, want", [
    ("Management Integrity: I would not call it cheap, so it fails.\n", 3, "REJECT"),
    ("Management Integrity: I would not call it spotless and it fails.\n", 3, "REJECT"),
    ("Margin of Safety: don't say no to this, it passes.\n", 5, "PROCEED"),
])
def test_a_conclusion_after_a_refused_word_is_the_writers_verdict(text, gate, want):
    assert gates(text)[gate] == want
