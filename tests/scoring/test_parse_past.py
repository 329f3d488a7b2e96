"""The one reader of past times (:mod:`ipb.scoring.parse._past`; issue 13, "which statement wins").

Three places ask whether a statement is the case's history rather than today's reading: a final verdict, an act of
the decision, a fact compared with a bar. They share one vocabulary and differ only where the text they read differs
(a year after "by" may be a deadline for an act; a bare year or "last year" dates the latest figures of a comparison).
Every text was written for these tests.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ipb.scoring.parse._past import READINGS, in_the_past, past_time

# ---------------------------------------------------------------- final verdicts: a sentence set in the past

VERDICT = [
    ("year-opening", "In 2021 it was too rich for me at 60x.", "too rich", None, True),
    ("month-opening", "In March 2020 the right call was to buy.", "to buy", None, True),
    ("back-then", "Back then it looked like a clear avoid.", "a clear avoid", None, True),
    ("turns-to-today", "In 2021 it was dear, so today it's a buy.", "a buy", None, False),
    ("latest-year-fact", "In 2024 revenue was up 9%, so it's a buy.", "a buy", None, False),
    ("no-past-verb", "In 2024 it is a buy for us.", "a buy", None, False),
    ("present", "It is a buy at this price.", "a buy", None, False),
    # a past verb dated right after it
    ("passed-in-year", "I passed on it in 2019, but now it is cheap.", "passed on it", "passed on it", True),
    ("sold-last-year", "We sold it last year and regret it.", "sold it", "sold it", True),
    ("present-verb-year", "We buy it in 2026 terms at 12x.", "buy it", "buy it", False),
    # the three lists of spans ago were different: "ten" only at a sentence's opening, figures only after a verb,
    # "years ago" with no count nowhere (each of these read as today's verdict before the one reader)
    ("sold-ten-years-ago", "I sold it ten years ago, and now I'd buy it back.", "sold it", "sold it", True),
    ("figure-years-ago-opening", "5 years ago it was too dear for us.", "too dear", None, True),
    ("years-ago-opening", "Years ago it looked like an avoid.", "an avoid", None, True),
    ("last-crisis-opening", "During the last crisis it was a screaming buy.", "a screaming buy", None, True),
]


@pytest.mark.parametrize(("text", "at", "through", "expected"), [c[1:] for c in VERDICT], ids=[c[0] for c in VERDICT])
def test_a_verdict_set_in_the_past(text: str, at: str, through: str | None, expected: bool) -> None:
    pos = text.index(at)
    end = None if through is None else pos + len(through)
    assert in_the_past(text, 0, pos, end) is expected


# ---------------------------------------------------------------- acts and comparisons: a past time in the window

WINDOWS = [
    ("act-year", "act", "In 2019 we sold a third of the stake.", "In 2019"),
    ("act-back-in-year", "act", "We trimmed it back in 2018.", "back in 2018"),
    ("act-since", "act", "We have held it since 2015.", "since 2015"),
    ("act-years-ago", "act", "We bought it years ago.", "years ago"),
    ("act-last-year", "act", "Last year I sold half.", "Last year"),
    ("act-last-decade", "act", "We exited twice over the last decade.", "last decade"),
    # a month before the year, and the last episode, were read only for verdicts (acts so dated counted as today's)
    ("act-month-year", "act", "In March 2020 we sold half the position.", "In March 2020"),
    ("act-last-crisis", "act", "During the last crisis we sold a third.", "During the last crisis"),
    ("act-deadline", "act", "We exit the position by 2027.", None),  # a deadline, not history
    ("act-today", "act", "We sell the position today.", None),
    ("act-in-the-past", "act", "In the past we sold on weakness; today we hold.", None),  # a policy, not a dated act
    ("cmp-back-in-era", "comparison", "Back in the boom it traded above value.", "Back in"),
    ("cmp-back-in-year", "comparison", "Back in 2007 the return was 14% against our 10% hurdle.", "Back in"),
    ("cmp-last-cycle", "comparison", "Last cycle it made 14% against our 10% hurdle.", "Last cycle"),
    ("cmp-prior-decade", "comparison", "Over the prior decade margins beat the floor.", "prior decade"),
    ("cmp-last-bubble", "comparison", "In the last bubble it traded at 40x against a 15x cap.", "In the last bubble"),
    ("cmp-latest-year", "comparison", "In 2024 it made 14% against our 10% hurdle.", None),  # the latest figures
    ("cmp-last-year", "comparison", "Last year it made 14% against our 10% hurdle.", None),
    ("cmp-founded-ago", "comparison", "Founded four years ago, it has not been tested.", None),
]


@pytest.mark.parametrize(("reading", "text", "found"), [c[1:] for c in WINDOWS], ids=[c[0] for c in WINDOWS])
def test_a_past_time_in_the_window(reading: str, text: str, found: str | None) -> None:
    m = past_time(text, 0, len(text), reading)  # type: ignore[arg-type]
    assert (m.group(0) if m is not None else None) == found


def test_the_window_bounds_the_search() -> None:
    text = "In 2019 we sold a third. We sell the rest now."
    second = text.index("We sell")
    assert past_time(text, 0, len(text), "act") is not None
    assert past_time(text, second, len(text), "act") is None


def test_an_unknown_reading_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown reading 'history'"):
        past_time("In 2019 we sold.", 0, 16, "history")  # type: ignore[arg-type]


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("in back last 2019 years ago the cycle boom by, .\n\tIB")), max_size=80),
       st.integers(0, 80), st.integers(0, 80))
def test_never_raises_and_stays_in_its_window(text: str, a: int, b: int) -> None:
    start, end = min(a, b, len(text)), min(max(a, b), len(text))
    for reading in READINGS:
        m = past_time(text, start, end, reading)
        assert m is None or start <= m.start() <= m.end() <= end
    assert in_the_past(text, start, end, None) in (True, False)
    assert in_the_past(text, start, end, end) in (True, False)
