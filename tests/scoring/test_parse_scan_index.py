"""The word index of a long text (:meth:`ipb.scoring._scan.WordPrefixes.positions`) finds every occurrence that a
search of the whole text finds (issue 13, parser speed): regression tests for a speed-up that must not change a
reading."""

from __future__ import annotations

from contextlib import contextmanager
from typing import Iterator

from hypothesis import given, settings
from hypothesis import strategies as st

from ipb.scoring import _scan

ALPHABET = "ab na-_\u00e9\n9"
LITERALS = ["a", "ab", "aa", "ba b", "na", "n-a", "ab ", "9a", "\u00e9a", "a_b", "-a", " a", "b\nn", "a 9", "-na b", "a b9", "_", " "]


@contextmanager
def every_text_is_long() -> Iterator[None]:
    old = _scan.JOIN_WORDS_FROM
    _scan.JOIN_WORDS_FROM = 0
    try:
        yield
    finally:
        _scan.JOIN_WORDS_FROM = old


def test_a_literal_inside_words_is_found_at_every_place():
    low = "aaa banana aa_a\u00e9a 9a"
    prefixes = _scan.word_prefixes(low)
    assert prefixes.positions("aa", 10) is None  # a short text carries no index
    with every_text_is_long():
        prefixes = _scan.word_prefixes(low)
    assert prefixes.positions("aa", 10) == [0, 1, 11]  # overlapping, and "aa" before an underscore
    assert prefixes.positions("ana", 10) == [5, 7]
    assert prefixes.positions("a b", 10) == [2]  # the run "a", then the text goes on " b"
    assert prefixes.positions("a", 3) == [0, 1, 19]  # past the limit: the first and the last half
    assert prefixes.positions("_a", 10) == [13]  # opens with no letter or digit: found by its run "a", one back
    assert prefixes.positions(" -", 10) is None  # no letter or digit: the caller searches the text


def test_a_literal_is_found_by_its_run_in_the_fewest_words():
    # "of the loan": "of" and "the" sit in many words here, "loan" in one: the literal is found through "loan",
    # its places shifted back by where "loan" sits in the literal
    low = "often other of the loan; the theme of the loan, bother offer"
    with every_text_is_long():
        prefixes = _scan.word_prefixes(low)
    assert prefixes.positions("of the loan", 10) == [12, 35]
    assert prefixes.positions("er of", 10) == [9, 52]  # "er" and "of" each sit in three words: "er" (the first) is used
    assert prefixes.positions("the loan", 1) == [15]  # past the limit of one: the first


@settings(max_examples=300, deadline=None)
@given(st.text(ALPHABET, max_size=120), st.lists(st.sampled_from(LITERALS), min_size=1, max_size=6, unique=True))
def test_a_scan_reads_a_long_text_as_a_short_one(text, literals):
    """:func:`_scan.scan` through the index of a long text (literals that open with no word as well; a literal starts a word) gives the
    matches the search of the whole text gives."""
    import re

    triggers = [_scan.Trigger(lit, re.compile(re.escape(lit)), k) for k, lit in enumerate(literals)]
    plain = _scan.scan(text, text, triggers, prefixes=_scan.word_prefixes(text))  # a short text: prefixes, no index
    with every_text_is_long():
        prefixes = _scan.word_prefixes(text)
    indexed = _scan.scan(text, text, triggers, cache={}, prefixes=prefixes)
    assert [(k, m.span()) for k, m in indexed] == [(k, m.span()) for k, m in plain]


@settings(max_examples=300, deadline=None)
@given(st.text(ALPHABET, max_size=120), st.sampled_from(LITERALS), st.integers(1, 6))
def test_the_index_finds_what_the_search_finds(text, literal, limit):
    with every_text_is_long():
        prefixes = _scan.word_prefixes(text)
    got = prefixes.positions(literal, limit)
    if got is not None:
        assert got == _scan._positions(text, literal, limit)
