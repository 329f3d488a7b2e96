"""Issue 13 hardening (stop 50): the spacing after a final label's colon is read in linear time.

The rating field ("Verdict:" + a synonym) and the yes/no answer label ("Final answer: no") let two stars split one run
of spacing after the colon every way ("[ \\t]*\\**[ \\t]*"), and every split tried every word: 2,000 tabs after
"Final verdict:" took 13 s of CPU and 20,000 hung ``ipb parse``. The runs are now atomic (what follows them never opens
with a space, tab or emphasis mark), so the longest run is the only one tried.
"""

from __future__ import annotations

import time

import pytest

from ipb.engine.registry import compiled_card
from ipb.scoring.parse import parse_response

CARD = compiled_card("graham_net_net_screen").card


def _parse(text: str):  # type: ignore[no-untyped-def]
    return parse_response(text, CARD, embedder=False)


@pytest.mark.parametrize("run", ["\t" * 20_000, " " * 20_000, " \t" * 10_000, "*" * 2 + " " * 20_000])
def test_a_long_run_after_the_final_label_is_read_within_the_bar(run: str) -> None:
    _parse("Gate 1: REJECT\nFinal verdict: DECLINE\n")  # the patterns compile on the first parse, not timed here
    cpu = time.process_time()
    trace = _parse("Gate 1: REJECT\nFinal verdict:" + run + "DECLINE\n")
    cpu = time.process_time() - cpu
    assert trace.final_verdict == "DECLINE"  # the word after the run is still the verdict
    assert cpu < 2.0, f"{cpu:.1f} s of CPU"


@pytest.mark.parametrize("answer", ["Recommendation: avoid", "Recommendation:\t\t** avoid", "Rating **:**  avoid",
                                    "Final answer: **no**.", "Final answer \t:\t no."])
def test_labels_with_spacing_and_emphasis_around_the_colon_are_still_read(answer: str) -> None:
    # "avoid" is a fail synonym and "no" the answer to "should we invest": both the card's fail outcome, DECLINE
    assert _parse("Gate 1: REJECT\n" + answer + "\n").final_verdict == "DECLINE"


@pytest.mark.parametrize("run", [" " * 20_000, "\t" * 20_000])
def test_a_json_answer_with_long_runs_after_its_verdicts_is_read_within_the_bar(run: str) -> None:
    """A JSON answer padded after each verdict word: the correction tail ("REJECT, not PROCEED") and the ironic tail
    ("pass, yeah right") after a verdict word split the run between two stars around an optional mark (20,000 spaces:
    6.6 s of CPU, 2.1 s and 1.2 s of it in those two matches; now one star per run unless a mark stands between)."""
    _parse("Gate 1: REJECT\nFinal verdict: DECLINE\n")
    cpu = time.process_time()
    trace = _parse('{"gates": [{"gate": 1, "verdict": "REJECT' + run + '"}], "final_verdict":' + run + '"DECLINE"}')
    cpu = time.process_time() - cpu
    assert trace.final_verdict == "DECLINE"
    assert cpu < 2.0, f"{cpu:.1f} s of CPU"


@pytest.mark.parametrize(("answer", "verdict"), [
    ("Gate 1: REJECT, not PROCEED.\n", "REJECT"),        # the correction tail still sets the other word aside
    ("Gate 1: REJECT \u2014 not a pass.\n", "REJECT"),
])
def test_the_correction_tail_still_reads(answer: str, verdict: str) -> None:
    assert _parse(answer).gates[0].verdict == verdict
