"""The verify deck memo (condition C per deck of cards) gives the same problems as computing each
item's conditions afresh, an edited question included."""

from __future__ import annotations

from ipb.perturb.items import condition_problems, conditions


def test_deck_memo_gives_the_same_condition_problems() -> None:
    cards = [{"id": "a", "investor": "Warren Buffett", "content_hash": "11"},
             {"id": "b", "investor": "Howard Marks", "content_hash": "22"}]
    good = {"question": "Q1", "manifest": {"cards": cards},
            "conditions": conditions("Q1", ["Warren Buffett", "Howard Marks"], cards)}
    edited = {**good, "question": "Q2"}
    other_deck = {**good, "manifest": {"cards": [{**cards[0], "content_hash": "33"}, cards[1]]}}
    decks: dict = {}
    for item in (good, edited, other_deck, good):
        assert condition_problems(item, decks) == condition_problems(item)
    assert condition_problems(good, decks) == []
    # the messages say which part differs (stop 31; they ended "(edited after it was made?)")
    assert condition_problems(edited, decks) == [
        "condition B context differs from the item's question and investors: its query_sha256 is not the SHA-256 "
        "of the question: the question (or conditions.B) was edited after the item was made"]
    assert condition_problems(other_deck, decks) == [
        "condition C context differs from the item's cards: its cards [{\"content_hash\": \"11\", \"id\": \"a\"}, "
        "{\"content_hash\": \"22\", \"id\": \"b\"}] differ from the manifest's cards [{\"content_hash\": \"33\", "
        "\"id\": \"a\"}, {\"content_hash\": \"22\", \"id\": \"b\"}]: the manifest's cards or conditions.C were edited "
        "after the item was made"]
