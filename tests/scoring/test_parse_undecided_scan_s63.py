"""The outcome scan behind the undecided final verdict: one scan shared, a pattern that turns away non-starts
(issue 13 s63; paper §7.5). Speed is measured in bench/undecided_scan.py (a ratio against the s62 code in one run);
here the scan count and the sameness of the matches are checked."""

from __future__ import annotations

import re
from typing import Any, Iterator

from hypothesis import given, settings
from hypothesis import strategies as st

from ipb.engine.registry import compiled_card
from ipb.scoring.parse import _undecided as u
from ipb.scoring.parse._card import _index

IX = _index(compiled_card("buffett_acquisition_checklist").card)  # INVEST / DECLINE, and every language's words for them


class _Counting:
    """An outcome pattern that counts its ``finditer`` calls."""

    def __init__(self, pattern: re.Pattern[str]) -> None:
        self.pattern, self.calls = pattern, 0

    def finditer(self, text: str, *args: Any) -> Iterator[re.Match[str]]:
        self.calls += 1
        return self.pattern.finditer(text, *args)


def test_undecided_end_scans_the_outcome_words_once() -> None:
    # regression (2.5 MB of repeated years: alternatives and unsettled each scanned the whole text, about 12 s each)
    assert IX.outcome_re is not None
    counting = _Counting(IX.outcome_re)
    text = "Gate 1: PROCEED.\nPossibly INVEST, possibly DECLINE; it is close.\n"
    found = u.undecided_end(text, counting, IX.outcome_of, [])  # type: ignore[arg-type]
    assert counting.calls == 1
    assert found == (50, "INVEST, possibly DECLINE")  # 17 + 9 + 24: the pair ends at 50


def test_the_shared_scan_stops_at_the_bound_of_named_outcomes() -> None:
    assert IX.outcome_re is not None
    text = "INVEST. " * (u._MAX_MENTIONS + 50)
    mentions = u.outcome_mentions(text, IX.outcome_re, IX.outcome_of)
    assert len(mentions) == u._MAX_MENTIONS
    assert mentions[0] == (0, 6, "INVEST") and mentions[-1] == (8 * (u._MAX_MENTIONS - 1), 8 * (u._MAX_MENTIONS - 1) + 6, "INVEST")


def test_unsettled_reads_the_first_mentions_of_the_shared_scan() -> None:
    assert IX.outcome_re is not None
    text = "Probably INVEST, but that is not settled. DECLINE is the other view."
    mentions = u.outcome_mentions(text, IX.outcome_re, IX.outcome_of)
    assert [(a, b, o) for a, b, o in mentions] == [(9, 15, "INVEST"), (42, 49, "DECLINE")]
    assert u.unsettled(text, IX.outcome_re, mentions) == u.unsettled(text, IX.outcome_re) == [(9, 40)]


def test_the_outcome_pattern_opens_with_a_first_character_lookahead() -> None:
    assert IX.outcome_re is not None
    assert IX.outcome_re.pattern.startswith("(?i)(?=[")
    assert IX.outcome_re.match("1986 1987") is None


_OLD = re.compile(re.sub(r"^\(\?i\)\(\?=\[[^\]]*\]\)", "(?i)", IX.outcome_re.pattern if IX.outcome_re else ""))
_PIECES = st.sampled_from(["invest", "INVEST", "Decline", "declines", "investieren", "ablehnen", "invertir", "ſ", "K", "1986",
                           " ", "\n", ".", "-", "_", "not ", "to ", "ß", "İ", "投资", "不投资", "निवेश करें", "é", "Ä"])


@settings(max_examples=300, deadline=None)
@given(st.lists(_PIECES, max_size=30).map("".join))
def test_the_lookahead_changes_no_match(text: str) -> None:
    assert IX.outcome_re is not None
    assert [m.span() for m in IX.outcome_re.finditer(text)] == [m.span() for m in _OLD.finditer(text)]
