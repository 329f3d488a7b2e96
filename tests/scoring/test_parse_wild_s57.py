"""Stop 57 (issue 13): two layouts of the n53 batch's tuned split that the parser misread.

- A writer who never capitalises numbers the gates line by line ("gate 2 margin of safety: ... -> REJECT"). Each line
  is long and ends without a stop, and the next one opened in lower case, so the hard-wrap reader joined the lines into
  one sentence and every gate after the first lost its own line (``scoring/parse/_unwrap.py``).
- An answer written from retrieved documents lists them first, one "[n] title" per line under a "sources:" title; a
  document named like a gate ("Implementation Cost and Leverage") was read as that gate, first in the answer, and took
  the verdict of a record below (``scoring/parse/_source_lists.py``).

Every expected value is worked by hand from the card's gates (given beside each card constant); the texts are written
for these tests, none is a corpus case. Each test fails before the change.
"""

from __future__ import annotations

import time

from ipb.scoring.parse import parse_response
from ipb.scoring.parse._source_lists import blank_source_lists
from ipb.scoring.parse._unwrap import unwrap_hard_wrapped
from tests.scoring.parse_support import read_gates

#: Klarman's card: 1 Downside Assessment, 2 Margin of Safety, 3 Position Sizing and Portfolio Risk.
KLARMAN = "klarman_downside_first_process"
#: Dalio's rebalancing card: 1 Risk Drift Beyond Tolerance, 2 Strategic Not Tactical, 3 Implementation Cost and Leverage.
DALIO = "dalio_all_weather_rebalancing"

LOWER_CASE = (
    "my notes on the klarman process for this one\n"
    "\n"
    "gate 1 downside assessment: bad case takes 14% off the price, under the 25% line -> PROCEED\n"
    "gate 2 margin of safety: paying 0.9 of value when the card wants 0.67 or less -> REJECT\n"
    "gate 3 position sizing: a 10% slot times 14% is 1.4% of the book, under 2% -> PROCEED\n"
    "\n"
    "final verdict: DECLINE\n"
)


def test_lower_case_numbered_gate_lines_are_each_their_own_item() -> None:
    # before: only gate 1 was read (the two lines after it were joined onto its line as a wrapped sentence)
    assert read_gates(LOWER_CASE, KLARMAN) == [(1, "PROCEED"), (2, "REJECT"), (3, "PROCEED")]


def test_a_sentence_running_on_into_a_lower_case_gate_still_joins() -> None:
    # the line before ends on "in", a word no sentence ends with: the break is a wrap and the two lines are one sentence
    text = "The bad case loss was worked out the same way as it was done earlier in\ngate 1 of the previous memo."
    assert unwrap_hard_wrapped(text) == text.replace("\n", " ")
    # a line ending on a verdict and a lower-case gate line after it: the break stays
    two = "gate 1 downside assessment: bad case takes 14% off the price -> PROCEED\ngate 2 margin of safety: REJECT"
    assert unwrap_hard_wrapped(two) == two


RETRIEVED = (
    "card: dalio all weather rebalancing\n"
    "sources:\n"
    "  - \"[1] Rebalancing card summary\"\n"
    "  - \"[2] Implementation Cost and Leverage\"\n"
    "gates:\n"
    "  - gate: 1\n"
    "    name: Risk Drift Beyond Tolerance\n"
    "    largest_gap_pts: 7\n"
    "    verdict: PROCEED\n"
    "  - gate: 2\n"
    "    name: Strategic Not Tactical\n"
    "    motive: a rates forecast\n"
    "    verdict: REJECT\n"
    "  - gate: 3\n"
    "    name: Implementation Cost and Leverage\n"
    "    reached: false\n"
    "    verdict: N/A\n"
    "final_verdict: HOLD\n"
)


def test_a_numbered_sources_list_names_no_gate() -> None:
    # before: gate 3 was read first, from the second source's title, with the verdict PROCEED of gate 1's record
    assert read_gates(RETRIEVED, DALIO) == [(1, "PROCEED"), (2, "REJECT"), (3, "N/A")]
    assert parse_response(RETRIEVED, DALIO, embedder=False).final_verdict == "HOLD"


def test_only_lists_of_reference_marks_are_blanked() -> None:
    text = "Sources:\n- [1] the card\n- [2] the annual report\nGate 1: PROCEED"
    out, n = blank_source_lists(text)
    assert n == 3 and len(out) == len(text) and out.endswith("Gate 1: PROCEED") and "annual" not in out
    kept = "References:\n- Gate 1: PROCEED\n- Gate 2: REJECT"  # items without a [n] mark: the answer itself
    assert blank_source_lists(kept) == (kept, 0)
    mixed = "Sources:\n[1] the card\nGate 1: PROCEED\n[2] the report"  # the list ends at the first other line
    out, n = blank_source_lists(mixed)
    assert n == 2 and "Gate 1: PROCEED" in out and "[2] the report" in out


def test_the_new_line_scans_stay_linear_on_long_input() -> None:
    # a sources title followed by 50,000 reference-like lines, and 20,000 lower-case gate lines: each read in well
    # under a few seconds (both scans look at each line a bounded number of times)
    many = "Sources:\n" + "[1] x\n" * 50_000
    t0 = time.process_time()
    blank_source_lists(many)
    long_lines = ("gate 1 downside assessment: nothing more to say on this point -> PROCEED\n" * 20_000)
    unwrap_hard_wrapped(long_lines)
    spaces = "Sources:" + " " * 100_000 + "\n[1" + " " * 100_000
    blank_source_lists(spaces)
    assert time.process_time() - t0 < 5.0
