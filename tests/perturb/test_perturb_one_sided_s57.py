"""An L8 run names a card whose verdict barely moves (s57 new user W2: Greenblatt DECLINE on 998 of 1,000 items of a
three-investor deck, and the summary said nothing; issue 18 item 2 asks L8 items to vary every investor's outcome)."""

from __future__ import annotations

from ipb.perturb.runs import ONE_SIDED_SHARE, one_sided_card_notes


def test_a_card_at_or_above_the_share_is_named_with_its_count() -> None:
    notes = one_sided_card_notes({"greenblatt": {"DECLINE": 998, "INVEST": 2}, "munger": {"BUY": 510, "PASS": 490}})
    assert len(notes) == 1
    assert notes[0].startswith("card greenblatt gives DECLINE on 998 of 1,000 items (99.8%)")


def test_the_share_is_inclusive_and_just_below_is_quiet() -> None:
    assert ONE_SIDED_SHARE == 0.95
    at = one_sided_card_notes({"a": {"X": 95, "Y": 5}, "b": {"X": 50, "Y": 50}})
    below = one_sided_card_notes({"a": {"X": 94, "Y": 6}, "b": {"X": 50, "Y": 50}})
    assert [n[:33] for n in at] == ["card a gives X on 95 of 100 items"] and below == []


def test_l7_runs_small_runs_and_stuck_cards_get_no_note() -> None:
    assert one_sided_card_notes({"a": {"X": 1000}}) == []  # one card: an L7 run, whose balance has its own line
    assert one_sided_card_notes({"a": {"X": 19}, "b": {"Y": 19}}) == []  # under 20 items: too few to say
    # INCONCLUSIVE on every item is stuck_card_notes' case (it names the unstated inputs)
    assert one_sided_card_notes({"a": {"INCONCLUSIVE": 300}, "b": {"X": 150, "Y": 150}}) == []
