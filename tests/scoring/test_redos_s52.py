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
