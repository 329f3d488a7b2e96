"""Stop 58 (issue 13, s58prose): phenomena of the whole tuned split that the parser misread, and one tidy.

- (a) An answer in paragraphs, in a language whose gate terms (``grammar/gate_terms.yaml``) were read only in titles,
  that names its criteria only by those key nouns inside its sentences was a "no gate recognised" failure; the terms in
  running prose are now read as a last resort (``scoring/parse/_prose_terms.py``).
- (b) A filled issue form pasting a bot's output under "Actual behavior": the bot's verdict is not the writer's, whose
  own later verdict wins; with no verdict of the writer's, the pasted output is the answer (corpus README convention),
  and a template's front matter ("title: '[REBALANCE] ...'") states no verdict (``scoring/parse/_pasted_output.py``).
- (e) The block-skipping passes (``_footnotes``, ``_source_lists``, ``_settings_block``) blank whole lines through one
  shared helper (``scoring/parse/_blank_lines.py``); its offsets and its blanking are worked by hand here.

Every expected value is worked by hand from the card's gates (given beside each card constant); the texts are written
for these tests, none is a corpus case.
"""

from __future__ import annotations

import time

from ipb.scoring.parse import parse_response
from ipb.scoring.parse._blank_lines import blank_lines, line_starts
from ipb.scoring.parse._footnotes import blank_footnotes
from ipb.scoring.parse._settings_block import blank_settings
from ipb.scoring.parse._pasted_output import front_matter, pasted_blocks
from ipb.scoring.parse._source_lists import blank_source_lists
from tests.scoring.parse_support import read_gates

#: Dalio's debt-cycle card: 1 Long-Term Debt Cycle Phase, 2 Phase Positioning Test.
DEBT = "dalio_debt_supercycle_navigation"
#: Graham's defensive portfolio card: ... 7 Price Limit Relative to Earnings (its gate with "earnings" in its name).
DEFENSIVE = "graham_defensive_portfolio_selection"
#: Dalio's rebalancing card: 1 Risk Drift Beyond Tolerance, 2 Strategic Not Tactical, 3 Implementation Cost and Leverage;
#: outcomes REBALANCE (pass) and HOLD (fail).
REBALANCING = "dalio_all_weather_rebalancing"


def test_a_swiss_german_term_inside_a_sentence_names_its_gate() -> None:
    # "Schuldezyklus" (debt cycle, gsw) is gate 1's term; "isch bestande" (has passed) a gsw PROCEED. No heading: before
    # the change the answer was a parse failure ("no gate of card ... recognised")
    text = "Mir händ s Land aagluegt, Wuche für Wuche. De Schuldezyklus vo däm Land staht am Top, und dä Test isch bestande.\n"
    assert read_gates(text, DEBT) == [(1, "PROCEED")]


def test_a_corsican_term_inside_a_sentence_names_its_gate() -> None:
    # "prufitti" (earnings, co) names gate 7 (Price Limit Relative to Earnings); "ùn passa" (does not pass) is REJECT
    text = "Corsica, u mo parè. U prezzu di l azzione hè 40 volte i prufitti: ùn passa.\n"
    assert read_gates(text, DEFENSIVE) == [(7, "REJECT")]


def test_prose_terms_never_replace_a_reading_the_card_names_give() -> None:
    # a gate named by its English name: the answer is no failure, so the last resort never runs and the Corsican noun
    # in the next sentence names no second gate
    text = "Risk Drift Beyond Tolerance: 7 points past the band, PROCEED. I prufitti sò boni.\n"
    assert read_gates(text, REBALANCING) == [(1, "PROCEED")]


ISSUE_FORM = (
    "---\n"
    "name: Proposal report\n"
    "about: A proposal that looks wrong\n"
    "title: '[REBALANCE] drift alert on the main book'\n"
    "labels: bot\n"
    "---\n"
    "\n"
    "**Actual behavior**\n"
    "```\n"
    "drift: 7pp\n"
    "Recommendation: REBALANCE\n"
    "```\n"
    "\n"
    "**Expected behavior**\n"
    "Drift of 7 points is past our 5-point band, and the motive is drift alone. The round trip costs 0.4% of NAV, over "
    "the 0.25% ceiling.\n"
    "\n"
    "I stopped the ticket. We hold this quarter.\n"
)


def test_the_writers_verdict_wins_over_a_pasted_bot_output() -> None:
    # before: REBALANCE (the bot's labelled recommendation inside the fenced output outranked the writer's "We hold")
    result = parse_response(ISSUE_FORM, REBALANCING, embedder=False)
    assert result.final_verdict == "HOLD"
    assert result.final_runner_up == "REBALANCE"


def test_a_pasted_output_is_the_answer_when_the_writer_states_none() -> None:
    # the corpus README convention: with no verdict of the writer's, the pasted output's verdict is what the text gives
    text = "Sample output of the agent on the test fixture:\n```\ndrift: 7pp, motive drift only\nRecommendation: REBALANCE\n```\n"
    assert parse_response(text, REBALANCING, embedder=False).final_verdict == "REBALANCE"


def test_which_blocks_are_pasted_output() -> None:
    # the front matter runs from offset 0 to the end of its closing "---" (4 + 13 + 18 + 3 = 38 characters)
    text = "---\nname: Report\ntitle: '[SELL] x'\n---\nMy answer:\n```\nverdict: SELL\n```\n"
    assert front_matter(text) == (0, 38)
    assert pasted_blocks(text) == [(0, 38)]  # "My answer:" introduces the writer's own fenced answer, not output
    logged = "Console log:\n```\nSELL\n```"
    assert pasted_blocks(logged) == [(13, 25)]  # the opening fence at 13, then 3 + 1 + 4 + 1 + 3 characters
    assert front_matter("---\nJust a rule.\n---\n") is None


def test_the_new_scans_stay_linear_on_long_input() -> None:
    # a front matter of one line of 200,000 spaces, a fenced block under a 100,000-character lead-in, 20,000 fences
    t0 = time.process_time()
    front_matter("---\n" + " " * 200_000 + "\n---\n")
    pasted_blocks("bot " + "x" * 100_000 + " returned\n```\nSELL\n```")
    pasted_blocks("output\n```\n" * 20_000)
    assert time.process_time() - t0 < 5.0


def test_line_starts_are_the_offsets_after_each_break() -> None:
    # "Gate 1" is 6 characters, "" 0, "x y" 3: lines start at 0, 7 and 8
    assert line_starts(["Gate 1", "", "x y"]) == [0, 7, 8]
    assert line_starts([""]) == [0]


def test_blank_lines_keeps_length_breaks_and_spacing_only_lines() -> None:
    text = "keep\n[1] a note\n\t\nlast"
    # line 1 (10 characters) turns into 10 spaces; line 2 (a tab only) is left; line 9 does not exist
    assert blank_lines(text, [1, 2, 9]) == "keep\n" + " " * 10 + "\n\t\nlast"
    assert blank_lines(text, []) is text
    assert len(blank_lines(text, range(4))) == len(text)


def test_the_three_passes_blank_through_the_helper() -> None:
    # the same blocks, blanked line for line: 3 lines ("Sources:" 8 characters, "- [1] card" 10, "- [2] report" 12),
    # 4 lines and 1 line ("¹ From the 2024 report." 23 characters)
    sources = "Sources:\n- [1] card\n- [2] report\nGate 1: PROCEED"
    assert blank_source_lists(sources) == (" " * 8 + "\n" + " " * 10 + "\n" + " " * 12 + "\nGate 1: PROCEED", 3)
    settings = "[Tool]\nA=1\nB=2\nC=3\nGate 1: PROCEED"
    assert blank_settings(settings) == ("      \n   \n   \n   \nGate 1: PROCEED", 4)
    notes = "Gate 1: PROCEED\u00b9\n\n\u00b9 From the 2024 report."
    assert blank_footnotes(notes) == ("Gate 1: PROCEED\u00b9\n\n" + " " * 23, 1)
