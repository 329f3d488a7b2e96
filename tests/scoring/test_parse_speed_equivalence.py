"""The parser's speed-ups read exactly as the plain code they replace (issue 13, the throughput bar).

Each shortcut is checked against a reference written here the slow, obvious way, on texts hypothesis draws from a
small alphabet (so literals recur, overlap themselves and pass the truncation limit):

- *Literal positions*: :func:`ipb.scoring._scan._positions` finds a literal that cannot overlap itself by one
  ``str.split`` when it occurs often; it must still give every occurrence, overlapping ones included for literals
  that can overlap ("aa", "abab"), and keep the first and last halves past ``limit``.
- *Trigger scan*: :func:`ipb.scoring._scan.scan` now tries only the literals whose first three characters start a
  word of the text (a head index per trigger list) instead of testing every literal of the list; the matches, their
  keys, which of two tied matches wins, and the literals reported as truncated must be those of the old loop.
- *Element matcher*: :func:`ipb.scoring.parse._element_bags._stem_hit` memoises per sentence bag; a second look gives
  what a fresh look gives.
- *Reading comparison*: ``bench/parse_readings.py --compare`` exits 1 when two dumps differ in one reading.

Speed itself is measured in ``bench/parse.py`` (never timed here).
"""

from __future__ import annotations

import importlib.util
import json
import re
import sys
from operator import itemgetter
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st
from ipb.scoring import _scan
from ipb.scoring._scan import Trigger, scan, word_prefixes
from ipb.scoring.parse._element_bags import _Bag, _stem_hit, _stem_hit_in

ROOT = Path(__file__).resolve().parents[2]


def _naive_positions(low: str, literal: str, limit: int) -> list[int]:
    out = [i for i in range(len(low) - len(literal) + 1) if low.startswith(literal, i)]
    if len(out) > limit:
        tail = limit // 2
        out = out[: limit - tail] + out[len(out) - tail :]
    return out


def _old_scan(text, low, triggers, *, limit, prefixes=None, truncated=None):
    """The loop ``scan`` had before the head index: every literal of the list in order, each tested against
    ``prefixes`` one by one (the reference)."""
    found = []
    for literal, (word, tried) in _scan._grouped_for(triggers).items():
        if prefixes is not None:
            head = literal[:3]
            if head.isalnum():
                if head not in prefixes:
                    continue
            elif literal not in low:
                continue
        positions = _naive_positions(low, literal, limit)
        if truncated is not None and len(positions) >= limit:
            truncated.add(literal)
        for pos in positions:
            if word and pos > 0 and (low[pos - 1].isalnum() or low[pos - 1] == "_"):
                continue
            for pattern, keys, key in tried:
                m = pattern.match(text, pos)
                if m is not None and m.end() > pos:
                    found.append((pos, keys[m.lastgroup or ""] if keys is not None else key, m))
                    if keys is not None:
                        break
    found.sort(key=itemgetter(0, 1))
    out, end = [], -1
    for pos, key, m in found:
        if pos >= end:
            out.append((key, m))
            end = m.end()
    return out


ALPHABET = "ab -_n\u00e9"


@settings(max_examples=300, deadline=None)
@given(st.text(ALPHABET, max_size=300), st.text("ab -", min_size=1, max_size=4), st.integers(1, 60))
def test_positions_are_every_occurrence_overlapping_included(low, literal, limit):
    assert _scan._positions(low, literal, limit) == _naive_positions(low, literal, limit)


def test_positions_of_a_literal_that_overlaps_itself_and_one_that_cannot():
    text = "ab" * 40 + "aaaa"  # 40 "ab" (split path: they cannot overlap), "aa" three times overlapping
    assert _scan._positions(text, "ab", 100) == list(range(0, 80, 2))
    assert _scan._positions(text, "aa", 100) == [80, 81, 82]
    assert _scan._positions(text, "bab", 100) == list(range(1, 79, 2))  # "bab" overlaps itself: found one by one
    assert _scan._positions(text, "ab", 10) == [0, 2, 4, 6, 8, 70, 72, 74, 76, 78]


_WORDS = st.sampled_from(["no", "not", "n/a", "nab", "ban", "a b", "ab", "b-a", "an", "na n", "_a", "\u00e9a", "aaa", "ba"])


@st.composite
def _triggers(draw):
    out = []
    for literal in draw(st.lists(_WORDS, min_size=1, max_size=8)):
        tail = draw(st.sampled_from(["", "s?", "(?:[ -]a)?", "\\b", "(?P<w>b)?"]))
        out.append(Trigger(literal, re.compile("(?i)" + re.escape(literal) + tail), draw(st.integers(0, 3)),
                           draw(st.booleans())))
    return out


@settings(max_examples=300, deadline=None)
@given(st.text(ALPHABET, max_size=200), _triggers(), st.integers(1, 12), st.booleans())
def test_scan_reads_as_the_loop_over_every_literal(text, triggers, limit, use_prefixes):
    low = _scan.lowered(text)
    prefixes = word_prefixes(low) if use_prefixes else None
    got_truncated: set[str] = set()
    want_truncated: set[str] = set()
    got = scan(text, low, triggers, limit=limit, cache={}, prefixes=prefixes, truncated=got_truncated)
    want = _old_scan(text, low, triggers, limit=limit, prefixes=prefixes, truncated=want_truncated)
    assert [(k, m.span(), m.re.pattern) for k, m in got] == [(k, m.span(), m.re.pattern) for k, m in want]
    assert got_truncated == want_truncated


def test_scan_keeps_list_order_between_two_literals_tied_at_one_position():
    # "no" and "not" both match at 0 with key 0: the first of the list wins, whichever head index lists it first
    first = [Trigger("not", re.compile("not"), 0), Trigger("no", re.compile("no"), 0)]
    second = [Trigger("no", re.compile("no"), 0), Trigger("not", re.compile("not"), 0)]
    low = "not no"  # a literal under three letters passes the prefix test only where a word is that short
    for triggers, won in ((first, "not"), (second, "no")):
        out = scan(low, low, triggers, prefixes=word_prefixes(low), cache={})
        assert [m.group(0) for _, m in out] == [won, "no"]


def test_a_stem_looked_up_twice_in_one_bag_gives_the_first_answer():
    text = "Management earns its pay; the owners' earnings grew, and pricing power held."
    bag = _Bag.of(text, 0, len(text), [])
    for target in ("manag", "earn", "owner", "pric", "power", "dividend", "earnings", "managment"):
        for cutoff in (80.0, 95.0):
            first = _stem_hit(target, bag, cutoff)
            assert first == _stem_hit_in(target, bag, cutoff)
            assert _stem_hit(target, bag, cutoff) == first


def _readings_module():
    spec = importlib.util.spec_from_file_location("parse_readings", ROOT / "bench" / "parse_readings.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("parse_readings", module)
    spec.loader.exec_module(module)
    return module


def test_the_reading_comparison_fails_on_one_differing_reading(tmp_path, capsys):
    compare = _readings_module()._compare
    rows = [{"key": f"corpus/x/{k}", "config": "off", "sha256": f"{k:064x}", "reading": None} for k in range(3)]
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    a.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    b.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    assert compare(a, b) == 0
    rows[1]["sha256"] = "f" * 64
    b.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    assert compare(a, b) == 1
    assert "differs: corpus/x/1 (embedder off)" in capsys.readouterr().out
