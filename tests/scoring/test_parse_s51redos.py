"""Issue 13 hardening (stop 51): patterns that bench/redos_scan.py flagged once their own prefix stands before a run.

* ``FINAL_LABEL`` (is a label "the final verdict"?): ``the\\s+`` and then ``[\\s_-]*`` split one run of spacing after
  "the" every way; "the" + 8,000 spaces took over 3 s of CPU in one ``match``. ``the\\s++`` now takes the whole run:
  what may follow it ("final", "verdict"...) never opens with a space, so no other split could match.
* ``_DECLINE_LABEL_BEFORE`` (the label before a declining "PASS"): three stars over one run at its start
  (``[ \\t]+[ \\t]*[*_#>-]{0,3}[ \\t]*``) and two around its separator; a line break + 4,000 spaces took 1.3 s in one
  ``search``. Each run is now read by one possessive star; ``[ \\t]-`` became its own branch ``[ \\t]++-``.

Both rewrites matched the same spans and groups as the old patterns on 300,000 random strings each (finditer, match
at every position, search ending at every position). The slow inputs run in a child process with a generous bound
(60 s against well under 1 s now; before, each took minutes), never a tight timed assertion.
"""

from __future__ import annotations

import pytest

from ipb.scoring import verdict_words as vw
from ipb.scoring.parse._final_words import _DECLINE_LABEL_BEFORE
from parse_support import runs_in_a_child


def test_final_label_after_the_and_a_long_run_of_spaces_ends() -> None:
    runs_in_a_child(
        "from ipb.scoring._final_words import FINAL_LABEL as P\n"
        "for run in (' ' * 50_000, '\\t' * 50_000, ' \\n' * 25_000):\n"
        "    assert P.match('the' + run + '\\u2603') is None\n"
        "    assert P.match('the' + run + 'verdict') is not None\n"  # the run is spacing between "the" and the label
        "print('ok')\n")


def test_decline_label_after_a_line_break_and_a_long_run_of_spaces_ends() -> None:
    runs_in_a_child(
        "from ipb.scoring.parse._final_words import _DECLINE_LABEL_BEFORE as P\n"
        "for run in (' ' * 50_000, '\\t' * 50_000):\n"
        "    assert P.search('\\n' + run + '\\u2603') is None\n"
        "    assert P.search('x.' + run + 'decision' + run + '-' + run) is not None\n"
        "print('ok')\n")


@pytest.mark.parametrize(("label", "is_final"), [
    ("the final verdict", True),        # the pattern's own example: "the", a final word, a label word
    ("the   verdict", True),            # spacing only between "the" and the label word
    ("the \t_ decision", True),         # "the", then spacing, an underscore and spacing: [\s_-]* takes what \s++ left
    ("the final verdicts", True),
    ("the", False),                     # no label word
    ("the verdict x", False),           # something after the label word
    ("thefinal verdict", False),        # "the" without its spacing
])
def test_final_label_reads_as_before(label: str, is_final: bool) -> None:
    assert (vw.FINAL_LABEL.match(label) is not None) is is_final


@pytest.mark.parametrize(("before", "advice"), [
    ("Final decision: ", None),                     # a line opening with the label; no recommendation
    ("\n  ** My recommendation - ", "recommendation"),  # the dash separator after a space, then the run to the end
    ("Done. Decision for the portfolio:\t**", None),  # after a sentence's end: one space at least, then the label
    ('{"recommendation": "', "recommendation"),      # a JSON key after its brace
])
def test_decline_label_before_still_reads(before: str, advice: str | None) -> None:
    m = _DECLINE_LABEL_BEFORE.search(before)
    assert m is not None and m.end() == len(before)
    assert m.group("advice") == advice


@pytest.mark.parametrize("before", [
    "Done.Decision: ",   # after a sentence's end the label needs a space or tab before it
    "Decision-",         # a dash separates only after a space or tab (the branch [ \t]++-)
    "Decision:: ",       # one separator: after the colon's spacing only emphasis, a quote and the end may follow
])
def test_decline_label_before_refuses_as_before(before: str) -> None:
    assert _DECLINE_LABEL_BEFORE.search(before) is None
