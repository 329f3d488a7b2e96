"""Issue 13 hardening (stop 54): slow patterns of the response parser that a real answer reaches.

Stop 52's scan (``bench/redos_scan.py --part K/4``) flagged about 24 patterns, timed alone. Stop 54 built, for each, an
answer that reaches it inside ``parse_response`` (the scan's prefix, then a long run of spaces, inside a gate heading
or a JSON value) and timed the whole parse at 4,000 and 8,000 characters of run (CPU s, before the fix, busy machine):

* ``_citations._TITLE_YEAR`` "(Security Analysis, 1934," + spaces, no ")": 3.2 and 8.8 s;
* ``_excepted._EXCEPT`` "All six gates" + spaces + "pass.": 1.7 and 4.1 s; ``_JOINER`` (a run after an excepted
  gate's name): 0.5 and 1.5 s, of which ``_inline_labels._CLOSES`` 0.07 and 0.32 s;
* ``_computed._RESULT`` "Excess return = fund return - benchmark = about" + spaces + "x.": 1.15 s at 200 spaces and
  over 3 min at 400 (four stars over one run);
* ``_json_keys._FIGURE`` a JSON value "(" + spaces + "n/a": 0.5 and 2.0 s; ``_YAML_ANSWER`` 0.36 s at 8,000;
* ``_final_words._DECLINE_PASS_END`` ("pass" + spaces) 0.55 s and ``_NEUTRAL_RATING`` ("Signal" + spaces) 0.6 s at
  8,000.

Each is rewritten so that one run of spacing is read by one possessive repeat (or, for ``_TITLE_YEAR``, a lookahead
lets the optional tail start only where a ")" is within its reach). Old and new pattern gave the same spans and
groups at every position, and the same ``finditer``, on 3,000 seeded random strings each and on 150 tuned corpus
answers (as written, lower-cased, and 50 with their spacing stretched). The tests below pin the rewritten structure,
hand-worked readings that must not change, and a child-process parse of each triggering answer with a long run.
"""

from __future__ import annotations

import re

import pytest

from ipb.scoring.parse._citations import _TITLE_YEAR
from ipb.scoring.parse._computed import _RESULT
from ipb.scoring.parse._excepted import _EXCEPT, _JOINER
from ipb.scoring.parse._final_words import _DECLINE_PASS_END, _NEUTRAL_RATING
from ipb.scoring.parse._inline_labels import _CLOSES
from ipb.scoring.parse._json_keys import _FIGURE, _YAML_ANSWER


def _title_year() -> re.Pattern[str]:
    pattern = _TITLE_YEAR[0].pattern
    return pattern.compiled() if hasattr(pattern, "compiled") else pattern  # type: ignore[no-any-return]


def _read(m: re.Match[str] | None) -> tuple[tuple[int, int], dict[str, str | None]] | None:
    return None if m is None else (m.span(), m.groupdict())


# --- structure: each run of spacing is read once ---------------------------------------------------------------------

def test_the_rewritten_patterns_read_each_run_of_spacing_once() -> None:
    assert r"(?P<verb>(?:[ \t]++[a-z']++){0,3}?)(?:[ \t]*+,[ \t]++|[ \t]++)(?:except" in _EXCEPT.pattern
    assert _JOINER.pattern == r"[ \t]*+(?:,|and|&|or)?[ \t]*+(?:the[ \t]++)?\Z"
    assert r"[,;](?=[ \t]*+[^()\n]{0,80}[ \t]*+\))[ \t]*(?P<inner>" in _title_year().pattern
    assert _RESULT.pattern.startswith(r"(?:=|\u2248)[ \t]*+(?:[^\W\d_][\w'&/.-]*+[ \t]++){0,4}?[ \t]*+(?P<sign>")
    assert _FIGURE.pattern.startswith(r"(?i)[-+(]?[ \t]*+(?:[$\u20ac\u00a3\u00a5]|usd|eur|gbp|jpy)?[ \t]*+[-+]?\d")
    assert _YAML_ANSWER.pattern.endswith(r"[\"']?[ \t]*+[,}\]]{0,4}+[ \t]*+$")
    assert r"[*_]{0,2}(?:[ \t]*+(?:[.!;\n]|\Z)|[ \t]++(?:for" in _DECLINE_PASS_END.pattern
    assert r"[ \t]*+\**+[ \t]*+[:=\u2014\u2013-][ \t]*+[*_]{0,2}+[ \t]*+(?P<word>neutral)" in _NEUTRAL_RATING.pattern
    assert _CLOSES.pattern.startswith(r"[*_]*+(?:[ \t]*+(?::|\u2014|\u2013)|[ \t]++[-\u2013\u2014][ \t]+)[ \t]*+[*_]*[^")


# --- readings that must not change (each worked by hand from the old pattern) -------------------------------------------

def test_the_exception_reads_as_before() -> None:
    # the verb is the fewest words before the exception word; a comma may stand in the spacing, but needs spacing after
    assert _read(_EXCEPT.match(" pass except the fifth")) == ((0, 13), {"verb": " pass"})
    assert _read(_EXCEPT.match(" pass , except gate 2")) == ((0, 15), {"verb": " pass"})
    assert _EXCEPT.match(" pass,except gate 2") is None
    assert _read(_EXCEPT.match("  all pass \t except for step 4")) == ((0, 24), {"verb": "  all pass"})
    assert [bool(_JOINER.fullmatch(s)) for s in (" , the ", " and  ", "", "  x ", " the")] == [True, True, True, False, False]


def test_the_title_year_reads_as_before() -> None:
    p = _title_year()
    assert _read(p.match("(Security Analysis, 1934, ch. 3)")) == ((0, 32), {"year": "1934", "inner": "ch. 3"})
    assert _read(p.match("(1934;  p. 4  )")) == ((0, 15), {"year": "1934", "inner": "p. 4"})
    # a tail of spacing alone was read as one space (the spacing gives one back to the tail): kept
    assert _read(p.match("(1934,   )")) == ((0, 10), {"year": "1934", "inner": " "})
    assert p.match("(1934, x") is None


def test_the_worked_result_reads_as_before() -> None:
    assert _read(_RESULT.match("= about $ 12")) == ((0, 11), {"sign": None, "num": "1"})
    assert _read(_RESULT.match("=  roughly  -5")) == ((0, 14), {"sign": "-", "num": "5"})
    assert _RESULT.match("= about x") is None


def test_figures_yaml_answers_pass_ends_neutral_ratings_and_label_closes_read_as_before() -> None:
    assert [bool(_FIGURE.fullmatch(s)) for s in ("( $ 12 )", "EUR  40 m", "12 %", "(  n/a")] == [True, True, True, False]
    assert _read(_YAML_ANSWER.search("moat:  true ,]  ")) == ((0, 16), {"key": "moat", "value": "true"})
    assert _YAML_ANSWER.search("moat: true x") is None
    assert [None if m is None else m.span() for m in map(_DECLINE_PASS_END.match, ("  for now", "  .", '" ,', "**  on it", " \t x"))] \
        == [(0, 9), (0, 3), (0, 3), (0, 9), None]
    assert _read(_NEUTRAL_RATING.match("Signal ** : ** neutral.")) == ((0, 22), {"word": "neutral"})
    assert _NEUTRAL_RATING.match("Signal: ***neutral") is None
    # a spaced dash needs spacing after it; an em dash does not; the value may start with a star
    assert [None if m is None else m.span() for m in map(_CLOSES.match, (" : x", "  -  x", "  -x", " \u2014x", "  x", ": **"))] \
        == [(0, 4), (0, 6), None, (0, 3), None, (0, 4)]


# --- the answers that reached each pattern parse -----------------------------------------------------------------------
# Each child runs the pattern alone on a run of 200,000 spaces (quadratic or worse before: minutes), then parses the
# answer that reached it with a run of 8,000 (as timed above; the child's 60 s limit is wall time
# on a busy shared machine, so the parse alone would not prove the fix for the milder ones).

_ALONE = {
    "title-year": "from ipb.scoring.parse._citations import _TITLE_YEAR\np = _TITLE_YEAR[0].pattern\n"
                  "p = p.compiled() if hasattr(p, 'compiled') else p\nassert p.match('(Security Analysis, 1934,' + RUN + 'x') is None\n",
    "except": "from ipb.scoring.parse._excepted import _EXCEPT as P\nassert P.match(RUN + 'pass.') is None\n",
    "joiner": "from ipb.scoring.parse._excepted import _JOINER as J\nfrom ipb.scoring.parse._inline_labels import _CLOSES as C\n"
              "assert J.fullmatch(RUN + 'frankly') is None and C.match(RUN + 'frankly') is None\n",
    "worked-result": "from ipb.scoring.parse._computed import _RESULT as P\nassert P.match('= about' + RUN + 'x') is None\n",
    "json-figure": "from ipb.scoring.parse._json_keys import _FIGURE as P\nassert P.fullmatch('(' + RUN + 'n/a') is None\n",
    "yaml-answer": "from ipb.scoring.parse._json_keys import _YAML_ANSWER as P\nassert P.search('moat: true' + RUN + 'x') is None\n",
    "pass-end": "from ipb.scoring.parse._final_words import _DECLINE_PASS_END as P\nassert P.match(RUN + 'or') is None\n",
    "neutral": "from ipb.scoring.parse._final_words import _NEUTRAL_RATING as P\nassert P.match('Signal' + RUN + 'neutral') is None\n",
}
_ANSWERS = {
    "title-year": ("buffett_acquisition_checklist", "Gate 1: PROCEED\nAs Graham wrote (Security Analysis, 1934,", "see chapter 3.\n"),
    "except": ("buffett_acquisition_checklist", "All six gates", "pass.\nFinal verdict: PROCEED\n"),
    "joiner": ("buffett_acquisition_checklist", "All six gates pass except Margin of Safety", "frankly, and Economic Moat.\n"),
    "worked-result": ("cppib_total_portfolio_active_strategy",
                      "## Gate 1: Value Added Over the Risk-Equivalent Benchmark\n\nExcess return = fund return - benchmark = about", "x.\n"),
    "json-figure": ("buffett_acquisition_checklist", '{"gates": [{"gate": 5, "verdict": "PROCEED", "margin_of_safety": "(', 'n/a"}]}\n'),
    "yaml-answer": ("buffett_acquisition_checklist", 'economic_moat: true\nmargin_of_safety: "true', "x\n"),
    "pass-end": ("buffett_acquisition_checklist", "Gate 1: PROCEED\nFinal verdict: we pass", "or not.\n"),
    "neutral": ("buffett_acquisition_checklist", "Gate 1: PROCEED\nSignal", "neutral\n"),
}


@pytest.mark.parametrize("name", sorted(_ANSWERS))
def test_an_answer_with_a_long_run_where_a_slow_pattern_was_parses(name: str) -> None:
    from parse_support import runs_in_a_child

    card, before, after = _ANSWERS[name]
    runs_in_a_child(
        "RUN = ' ' * 200_000\n" + _ALONE[name]
        + "from ipb.engine.registry import compiled_card\n"
        "from ipb.scoring.parse import parse_response\n"
        f"card = compiled_card({card!r}).card\n"
        f"parse_response({before!r} + ' ' * 8_000 + {after!r}, card, embedder=False)\n"
        "print('ok')\n")
