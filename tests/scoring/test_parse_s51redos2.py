"""Issue 13 hardening (stop 51, second pass): the worst patterns bench/redos_scan.py flagged (cut at 3 s of CPU with a
run of 4,000 characters after their own prefix), each now reading every run of spacing with one star.

* ``_ANSWER_YES_NO`` and its ``answer`` trigger ("the answer is: no"): ``\\s*[:\\u2014-]?\\s*\\**`` split the spacing
  after "is" between two stars; after the optional mark and the stars comes "no" or "yes", which never opens with
  spacing, a mark or a star, so each star is possessive.
* ``_closing._ANSWER_OPENS`` ("So no, ..."): ``[ \\t]*[,:]?[ \\t]+`` after the connective became ``(?:[ \\t]*+[,:])?
  [ \\t]++``, and the end ``[ \\t]*(?:[,;!:\\u2014\\u2013]|[ \\t]-)`` became ``(?:[ \\t]*+[,;!:\\u2014\\u2013]|[ \\t]++-)``.
* ``_closing._LIMITED_YES`` ("yes, but only below $20"): ``[ \\t*_]*[,;:\\u2014\\u2013-]?[ \\t]*`` became
  ``[ \\t*_]*+(?:[,;:\\u2014\\u2013-][ \\t]*+)?``.
* ``_judged._ON_A_CONDITION`` ("a mistake, only if ..."): ``[ \\t]*,?[ \\t]*`` became ``[ \\t]*+(?:,[ \\t]*+)?``.

Each rewrite matched the same spans and groups as the old pattern on 300,000 random strings (finditer, match at every
position, search ending at every position). The slow inputs run in a child process with a generous bound (60 s against
well under a second now), never a tight timed assertion; the readings below were worked by hand from the patterns.
"""

from __future__ import annotations

import pytest

from ipb.scoring.parse._closing import _LIMITED_YES, _PRICE_OPENING, answer_particle_end
from ipb.scoring.parse._final_words import _ANSWER_YES_NO, _ANSWER_YES_NO_TRIGGERS
from ipb.scoring.parse._judged import _ON_A_CONDITION, judged_wrong
from parse_support import runs_in_a_child


def test_answer_yes_no_after_a_long_run_of_spaces_ends() -> None:
    runs_in_a_child(
        "from ipb.scoring.parse._final_words import _ANSWER_YES_NO as P, _ANSWER_YES_NO_TRIGGERS as T\n"
        "for run in (' ' * 50_000, '\\t' * 50_000, ' \\n' * 25_000):\n"
        "    assert P.match('the overall answer is' + run + '\\u2603') is None\n"
        "    assert T[0].pattern.match('answer is' + run + '\\u2603') is None\n"
        "    assert P.match('the answer is' + run + ':' + run + 'no.').group('answer') == 'no'\n"
        "print('ok')\n")


@pytest.mark.parametrize(("text", "answer"), [
    ("The answer is: no.", "no"),
    ("our answer would be \u2014 **yes**", "yes"),
    ("my short answer is \t - \n yes", "yes"),       # spacing on both sides of the one mark
    ("the answer is **yes", "yes"),
    ("the answer is ** yes", None),                   # the stars must touch the word
    ("the answer is - - no", None),                   # at most one mark
    ("the answer is no company is cheap", None),      # "no" opens a clause, not an answer
    ("the answer is yesterday's", None),              # "yes" must end its word
])
def test_answer_yes_no_reads_as_before(text: str, answer: str | None) -> None:
    m = _ANSWER_YES_NO.match(text)
    assert (None if m is None else m.group("answer")) == answer
    t = _ANSWER_YES_NO_TRIGGERS[0].pattern.search(text)
    assert (None if t is None else t.group("answer")) == answer


def test_answer_opens_after_a_long_run_of_spaces_ends() -> None:
    runs_in_a_child(
        "from ipb.scoring.parse._closing import answer_particle_end as f\n"
        "for run in (' ' * 50_000, '\\t' * 50_000):\n"
        "    t = ' so' + run + '\\u2603'\n"
        "    assert f(t, 0, len(t)) is None\n"
        "    t = run + 'so' + run + ',' + run + 'no' + run + '\\u2603'\n"
        "    assert f(t, 0, len(t)) is None\n"
        "    t = 'so' + run + ',' + run + 'no' + run + '-'\n"
        "    assert f(t, 0, len(t)) == len(t)\n"
        "print('ok')\n")


@pytest.mark.parametrize(("text", "end"), [
    ("So no, not a buy.", 6),              # the docstring's own example, from the sentence start
    ("In  short :  yes - buy it", 18),     # spacing around the connective's colon; " -" closes the answer
    ("> Then,no; wait", None),             # after a mark the connective needs spacing before its answer
    ("Thus  yes!", 10),
    ("Well no good", None),                # no punctuation after the particle
    ("no -", 4),
    ("no-", None),                         # a dash needs spacing before it
    ("Nein, wir kaufen.", 5),              # another language's particle (grammar/languages.yaml)
])
def test_answer_opens_reads_as_before(text: str, end: int | None) -> None:
    assert answer_particle_end(text, 0, len(text)) == end


def test_limited_yes_after_a_long_run_of_spaces_ends() -> None:
    runs_in_a_child(
        "from ipb.scoring.parse._closing import _LIMITED_YES as P\n"
        "for run in (' ' * 50_000, '\\t' * 50_000, ' *' * 25_000):\n"
        "    assert P.match(run + '\\u2603') is None\n"
        "    assert P.match(run + ',' + run.replace('*', ' ') + 'unless the price falls') is not None\n"
        "print('ok')\n")


@pytest.mark.parametrize(("tail", "limited"), [
    (", but only below $20.", True),
    (" * \u2014 if rates fall", True),
    ("__; on a \t pullback", True),
    (", once", True),
    (", ongoing", False),          # "on" without "a pullback"; not "once"
    ("; only", False),             # "only" needs a condition after it
    (",, if", False),               # at most one mark
    (". If rates fall", False),    # a full stop is not one of its marks
])
def test_limited_yes_reads_as_before(tail: str, limited: bool) -> None:
    assert (_LIMITED_YES.match(tail) is not None) is limited


def test_on_a_condition_after_a_long_run_of_spaces_ends() -> None:
    runs_in_a_child(
        "from ipb.scoring.parse._judged import _ON_A_CONDITION as P\n"
        "for run in (' ' * 50_000, '\\t' * 50_000):\n"
        "    assert P.match(run + '\\u2603') is None\n"
        "    assert P.match(run + ',' + run + '\\u2603') is None\n"
        "    assert P.match(run + ',' + run + 'only' + run + 'if') is not None\n"
        "print('ok')\n")


@pytest.mark.parametrize(("tail", "condition"), [
    ("  ,  only if rates double", True),
    (" in \t case", True),
    (", just when", True),
    (" iffy", False),              # "if" must end its word
    (" ,, if", False),             # at most one comma
    (", only", False),
])
def test_on_a_condition_reads_as_before(tail: str, condition: bool) -> None:
    assert (_ON_A_CONDITION.match(tail) is not None) is condition


def test_judged_wrong_still_spares_a_condition_after_spacing() -> None:
    text = "Buying would be a mistake   ,   only if rates double."
    assert judged_wrong(text, 6, len(text)) is False
    text = "Buying would be a mistake   ,   rates are high."
    assert judged_wrong(text, 6, len(text)) is True


def test_price_opening_after_a_long_run_of_spaces_ends() -> None:
    """``_closing._PRICE_OPENING`` ("So, below $20 ..."): the same two stars around the connective's comma as
    ``_ANSWER_OPENS``; " so" + 8,000 spaces took over 3 s in one match."""
    runs_in_a_child(
        "from ipb.scoring.parse._closing import _PRICE_OPENING as P\n"
        "for run in (' ' * 50_000, '\\t' * 50_000):\n"
        "    assert P.match(' so' + run + '\\u2603') is None\n"
        "    assert P.match(' so' + run + ',' + run + 'at' + run + '\\u2603') is None\n"
        "    assert P.match('so' + run + ',' + run + 'at' + run + 'about' + run + '5') is not None\n"
        "print('ok')\n")


@pytest.mark.parametrize(("text", "end"), [
    ("At 35 we'd be buyers", 4),
    ("So ,  below $20 I would buy", 14),      # spacing on both sides of the connective's comma
    ("> but at around ~5", None),             # one of "around" or "~", not both
    ("Then at a  lower \t price", 24),
    ("at a lower priced", None),              # the price word must end its word
    ("So,below 5", None),                     # after the comma the connective needs spacing
])
def test_price_opening_reads_as_before(text: str, end: int | None) -> None:
    m = _PRICE_OPENING.match(text)
    assert (None if m is None else m.end()) == end
