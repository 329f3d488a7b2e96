"""An L8 answer written as one bullet or one line per investor is read per investor (s65 F1).

Found by the s65 evaluator: an answer that gave each investor one bullet ("- <investor>: the ... test probably
fails here, so ...") had no section per card (bullets, and lines over 160 characters, were never headings), so each
card was read over the whole answer: another investor's bullet gave Buffett's card REJECT gates (16 of 80 answers)
and a false "final contradicts own trace". A line whose label (after a list marker and emphasis, up to a colon or a
spaced dash) opens with one target's name and names no other now opens that target's section.
"""

from __future__ import annotations

from types import SimpleNamespace

from hypothesis import given, settings, strategies as st

from ipb.scoring._sections import _named_label, _target_sections


def _target(card_id: str, name: str, investor: str) -> SimpleNamespace:
    return SimpleNamespace(card_id=card_id, investor=investor,
                           compiled=SimpleNamespace(card=SimpleNamespace(name=name, gates=())))


TARGETS = [_target("s65_div", "Division attack", "Warren Tester"),
           _target("s65_val", "Value check", "Ben Grahamson"),
           _target("s65_cyc", "Cycle gauge", "Hilda Pendle")]

INTRO = "I can't advise you personally. Still, roughly:\n\n"                        # 48 characters
WARREN = "- Warren Tester: nearly every check looks fine, so it would likely be INVEST.\n"   # 78
BEN = ("- Ben Grahamson: the franchise test probably fails (a thin moat, unlike what Warren Tester would want), "
       "so the framework would likely land on DECLINE, though I hold that loosely.\n")  # 179, names Warren too
HILDA = "- **Hilda Pendle** \u2014 the froth reading looks high, so REDUCE_RISK.\n"
OUTRO = "\nAsk a licensed adviser first.\n"


def test_one_bullet_per_investor_gives_each_card_its_own_bullet():
    text = INTRO + WARREN + BEN + HILDA + OUTRO
    assert (len(INTRO), len(WARREN), len(BEN)) == (48, 78, 179)
    a = len(INTRO)
    b = a + len(WARREN)
    c = b + len(BEN)
    assert _target_sections(text, TARGETS) == [[(a, b)], [(b, c)], [(c, len(text))]]
    # Ben's bullet names Warren Tester in passing: it stays Ben's, and Warren's card never sees it
    assert "Warren Tester would want" in text[b:c]


def test_one_plain_line_per_investor_over_160_characters():
    lines = ["Warren Tester: " + "every check passes here " * 7 + "so INVEST.\n",
             "Ben Grahamson - " + "the valuation check fails " * 7 + "so DECLINE.\n",
             "Hilda Pendle: " + "the gauge reads cool " * 8 + "so STAY_INVESTED.\n"]
    assert all(len(line) > 160 for line in lines)
    text = "".join(lines)
    ends = [len(lines[0]), len(lines[0]) + len(lines[1]), len(text)]
    assert _target_sections(text, TARGETS) == [[(0, ends[0])], [(ends[0], ends[1])], [(ends[1], ends[2])]]


def test_bullets_for_two_of_three_leave_the_third_only_the_unclaimed_text():
    text = INTRO + WARREN + BEN
    a, b = len(INTRO), len(INTRO) + len(WARREN)
    assert _target_sections(text, TARGETS) == [[(a, b)], [(b, len(text))], [(0, a)]]


def test_bullets_that_are_not_an_investor_label_do_not_lay_the_answer_out():
    # a gate bullet naming an investor, a comparison of two, a name mid-sentence: no section anywhere
    text = ("- Gate 2 (Warren Tester's moat): PROCEED\n"
            "- Warren Tester vs Ben Grahamson: they differ on price\n"
            "- The cycle reading, as Hilda Pendle would say: hot\n")
    assert _target_sections(text, TARGETS) is None


NAMES = [["warren tester", "tester"], ["ben grahamson", "grahamson"]]


def test_named_label_hand_worked():
    assert _named_label("- tester: fine", NAMES) == 0
    assert _named_label("12) **ben grahamson** \u2013 declines", NAMES) == 1
    assert _named_label("* testers' club: no", NAMES) is None        # the name must end at a non-letter
    assert _named_label("- warren tester", NAMES) is None           # no label end: not a label
    assert _named_label("- " + "x" * 90 + " tester: late", NAMES) is None   # past 80 characters


@settings(max_examples=60, deadline=None)
@given(st.text(alphabet="- *:_abcrt\u2014 \n", max_size=400))
def test_sections_are_ordered_disjoint_spans_of_the_text(text: str):
    sections = _target_sections(text, TARGETS)
    if sections is None:
        return
    for spans in sections:
        for a, b in spans:
            assert 0 <= a < b <= len(text)
        assert spans == sorted(spans)


def test_many_one_line_sections_are_split_in_one_pass():
    # each heading's end was found by scanning a copy of every later heading: quadratic in the headings (40,000
    # investor lines took 6 s; these 300,000 would take minutes). Bounded in a child process, never timed here.
    from parse_support import runs_in_a_child

    runs_in_a_child(
        "from types import SimpleNamespace as N\n"
        "from ipb.scoring._sections import _target_sections\n"
        "ts = [N(card_id=c, investor=i, compiled=N(card=N(name=n, gates=()))) for c, n, i in\n"
        "      (('s65_a', 'Alpha check', 'Warren Tester'), ('s65_b', 'Beta check', 'Ben Grahamson'))]\n"
        "text = '- Warren Tester: a\\n- Ben Grahamson: b\\n' * 150_000\n"
        "s = _target_sections(text, ts)\n"
        "assert len(s[0]) == len(s[1]) == 150_000 and s[0][0] == (0, 19) and s[1][-1][1] == len(text)\n"
        "print('ok')\n")
