"""Issue 13 hardening (stop 52): ``bench/redos_scan.py --part K/N`` splits the scan into deterministic slices.

The scan times about 12,000 compiled patterns (most of them the word-list triggers of ``scoring/_scan``); on a shared
two-core machine one run of all of them does not finish in a working stop. ``--part K/N`` takes the K-th of N slices
of the patterns sorted by (text, flags), so N short runs cover every pattern exactly once, and a flag names the file
and line of the global that holds the pattern. These tests pin the slicing by hand-worked examples; the scan itself
is a bench, not a unit test.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import given, strategies as st

from tests.scoring.bench_support import load_bench


def _pats(texts: list[str]) -> list[tuple[re.Pattern[str], str, str]]:
    return [(re.compile(t), f"where{i}", "") for i, t in enumerate(texts)]


def test_part_takes_every_nth_of_the_sorted_patterns() -> None:
    bench = load_bench("redos_scan.py")
    pats = _pats(["d", "a", "c", "b", "e"])
    # sorted: a b c d e; part 1/2 takes positions 0, 2, 4 -> a c e; part 2/2 takes 1, 3 -> b d
    assert [p.pattern for p, _, _ in bench.part_of(pats, "1/2")] == ["a", "c", "e"]
    assert [p.pattern for p, _, _ in bench.part_of(pats, "2/2")] == ["b", "d"]
    assert [p.pattern for p, _, _ in bench.part_of(pats, "3/3")] == ["c"]
    assert [p.pattern for p, _, _ in bench.part_of(pats, "1/1")] == ["a", "b", "c", "d", "e"]


@pytest.mark.parametrize("bad", ["0/3", "4/3", "1", "a/b", "1/2/3", ""])
def test_a_bad_part_is_refused_with_its_value(bad: str) -> None:
    bench = load_bench("redos_scan.py")
    with pytest.raises(ValueError, match=re.escape(repr(bad))):
        bench.part_of(_pats(["a"]), bad)


@given(st.lists(st.text(alphabet="abc", max_size=3), unique=True, max_size=12), st.integers(1, 6))
def test_the_parts_of_one_n_cover_every_pattern_once(texts: list[str], n: int) -> None:
    bench = load_bench("redos_scan.py")
    pats = _pats([re.escape(t) for t in texts])
    taken = [p.pattern for k in range(1, n + 1) for p, _, _ in bench.part_of(pats, f"{k}/{n}")]
    assert sorted(taken) == sorted(p.pattern for p, _, _ in pats)


def test_locate_names_the_file_and_line_of_the_global() -> None:
    bench = load_bench("redos_scan.py")
    import ipb.scoring._final_words as fw

    where = bench.locate("ipb.scoring._final_words.FINAL_LABEL")
    path, line = where.rsplit(":", 1)
    assert path == "scoring/_final_words.py"
    with open(fw.__file__, encoding="utf-8") as fh:
        assert fh.read().splitlines()[int(line) - 1].startswith("FINAL_LABEL")
    assert bench.locate("re._cache") == "?"


# --- _acted._STATUS_LABEL ("Outcome: rejected") ---------------------------------------------------------------------
# The scan of stop 52 (parts of --only ipb.scoring.parse) and a profile of parse_response on "Outcome :" + a run of
# spaces + "declined" found the label's tail ``[ \t]*[*_]{0,2}[ \t]*`` after the separator splitting one run two ways:
# 4,000 spaces cost 3.6 s of CPU in this trigger's one match, 8,000 spaces 7 s for the whole parse. Each run is now
# read by one possessive star; on 60,000 random label strings the old and the new pattern gave the same spans and
# groups at every position.


def test_status_label_reads_each_run_of_spacing_with_one_possessive_star() -> None:
    from ipb.scoring.parse._acted import _STATUS_LABEL

    tail = _STATUS_LABEL.pattern.split("ruling)", 1)[1]
    assert tail.startswith(r"[*_]{0,2}(?:[ \t]*+(?::|\u2014|\u2013)|[ \t]++-)[ \t]*+(?:[*_]{1,2}+[ \t]*+)?(?:not")


@pytest.mark.parametrize(("text", "pred"), [
    ("Outcome :  ** not yet approved", "approved"),  # spacing, stars and spacing between the colon and the value
    ("**Outcome** - rejected", "rejected"),          # a spaced dash is a separator
    ("Status -approved", "approved"),
    ("Status- approved", None),                      # a dash needs spacing before it
    ("Outcome:***approved", None),                   # at most two stars before the value
    ("Outcome: ** ** approved", None),               # one group of stars
])
def test_status_label_reads_as_before(text: str, pred: str | None) -> None:
    from ipb.scoring.parse._acted import _STATUS_LABEL

    m = _STATUS_LABEL.match(text)
    assert (None if m is None else m.group("pred")) == pred


def test_an_answer_with_a_long_run_after_a_status_label_parses() -> None:
    from parse_support import runs_in_a_child

    runs_in_a_child(
        "from ipb.scoring.parse._acted import _STATUS_LABEL as P\n"
        "for run in (' ' * 50_000, '\\t' * 50_000):\n"
        "    assert P.match('Outcome :' + run + '\\u2603') is None\n"
        "    assert P.match('Outcome' + run + ':' + run + 'rejected').group('pred') == 'rejected'\n"
        "from ipb.engine.registry import bundled_card_paths, compiled_card\n"
        "from ipb.scoring.parse import parse_response\n"
        "card = compiled_card(str(sorted(bundled_card_paths())[0])).card\n"
        "parse_response('Gate 1: PROCEED\\nOutcome :' + ' ' * 20_000 + 'declined\\n', card)\n"
        "print('ok')\n")
