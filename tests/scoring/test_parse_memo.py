"""The per-card memo of the parser (:func:`ipb.scoring.parse._memo.per_object`, issue 13 item 2)."""

from __future__ import annotations

import gc
import weakref

from ipb.engine.registry import compiled_card
from ipb.scoring.parse._memo import per_object


class _Card:
    """A stand-in with no value equality: two of them are always different objects."""

    def __init__(self, name: str) -> None:
        self.name = name


def _counting(bound: int = 256):  # type: ignore[no-untyped-def]
    calls: list[tuple[str, tuple[object, ...]]] = []

    @per_object(bound=bound)
    def build(card: _Card, *args: object) -> str:
        calls.append((card.name, args))
        return f"{card.name}{args}"

    return build, calls


def test_built_once_per_object_and_per_extra_argument() -> None:
    build, calls = _counting()
    a = _Card("a")
    assert [build(a), build(a), build(a, "x"), build(a, "x"), build(a, "y")] == ["a()", "a()", "a('x',)", "a('x',)", "a('y',)"]
    assert calls == [("a", ()), ("a", ("x",)), ("a", ("y",))]


def test_an_equal_card_of_another_identity_is_built_again() -> None:
    build, calls = _counting()
    build(_Card("a"))
    build(_Card("a"))
    assert len(calls) == 2


def test_the_memo_holds_at_most_bound_plus_one_entries() -> None:
    build, calls = _counting(bound=3)
    cards = [_Card(str(i)) for i in range(6)]
    for card in cards:
        build(card)
    # four entries (0-3), then a fifth finds more than three and empties the memo before it is kept: 0 is built again
    build(cards[0])
    assert [name for name, _ in calls] == ["0", "1", "2", "3", "4", "5", "0"]
    build(cards[5])  # kept after the emptying
    assert len(calls) == 7


def test_a_collected_card_whose_id_is_reused_is_never_served_its_table() -> None:
    # the memo keeps each card it holds a table for, so no other object can take its id while the entry lives; after
    # the memo lets go (cache_clear) the id may be reused, and the new object gets its own table
    build, calls = _counting()
    card = _Card("old")
    old_id, alive = id(card), weakref.ref(card)
    assert build(card) == "old()"
    del card
    gc.collect()
    assert alive() is not None  # still held by the memo: its id is not free
    build.cache_clear()  # type: ignore[attr-defined]
    gc.collect()
    assert alive() is None
    for _ in range(1000):  # CPython hands a freed block to the next object of the same size
        other = _Card("new")
        if id(other) == old_id:
            break
    assert build(other) == "new()"


def test_the_parser_tables_are_built_once_per_card() -> None:
    from ipb.scoring.parse._fact_keys import input_gates
    from ipb.scoring.parse._prose import prose_vocabulary
    from ipb.scoring.parse._thresholds import gate_bars

    card = compiled_card("munger_business_quality_price").card
    for table in (input_gates, prose_vocabulary, gate_bars):
        assert table(card) is table(card)
