"""s51parse (issue 13): run-in heads in the writer's own words, read by the embedder.

Hand-worked against marks_market_cycle_positioning (gate 1 "Take the Market's Temperature", gate 2 "Position Against
the Pendulum"). The stand-in embedder maps each gate's name and one head of the writer's to one axis each and every
other text to a third, so a head is as close to its gate as can be (cosine 1), and 0 to the other: margin 1.
"""

from __future__ import annotations

from ipb.scoring.parse import parse_response

CARD = "marks_market_cycle_positioning"

_AXES = {
    "Take the Market's Temperature": [1.0, 0.0, 0.0],
    "Where we are today": [1.0, 0.0, 0.0],
    "Position Against the Pendulum": [0.0, 1.0, 0.0],
    "What we are doing about it": [0.0, 1.0, 0.0],
}


class AxisEmbedder:
    """Fixed vectors: the texts of ``_AXES`` on their axis, anything else on a third (far from both gates' names)."""

    def __init__(self) -> None:
        self.seen: list[str] = []

    def encode(self, sentences):
        self.seen.extend(sentences)
        return [_AXES.get(s, [0.0, 0.0, 1.0]) for s in sentences]


TWO_HEADS = (
    "Every quarter our clients ask whether now is a good time to take risk in credit.\n"
    "Where we are today. High-yield spreads have gone from 3 points to 9 in six months and new issuance has stopped.\n"
    "What we are doing about it. We have moved from defensive to aggressive and are buying senior loans at 80 cents.\n"
)


def _gates(text: str, embedder) -> dict[int, str]:
    r = parse_response(text, CARD, embedder=embedder)
    return {g.gate: g.how for g in r.gates}


def test_wh_clause_heads_are_offered_to_the_embedder():
    # "Where we are today." and "What we are doing about it." hold verbs ("are"), which made them sentences before;
    # a clause opened by "Where"/"What" and closed by a stop is a head. Both reach the embedder as written.
    e = AxisEmbedder()
    parse_response(TWO_HEADS, CARD, embedder=e)
    assert "Where we are today" in e.seen
    assert "What we are doing about it" in e.seen


def test_two_run_in_heads_each_take_their_gate_by_embedding():
    # each head is at cosine 1 to its gate's name and 0 to the other gate's texts: gate 1 then gate 2, in the text's order
    r = parse_response(TWO_HEADS, CARD, embedder=AxisEmbedder())
    assert [g.gate for g in r.gates][:2] == [1, 2]
    hows = {g.gate: g.how for g in r.gates}
    assert hows[2].startswith("embedding")


def test_a_lone_run_in_head_is_not_a_title():
    # one head of the writer's words is not a layout of titled paragraphs: the second line's head is made a sentence
    # ("We are doing this about it."), so "Where we are today." stands alone and is never read by the embedder
    text = TWO_HEADS.replace("What we are doing about it.", "We are doing this about it.")
    e = AxisEmbedder()
    r = parse_response(text, CARD, embedder=e)
    assert all(not g.how.startswith("embedding") for g in r.gates)


def test_without_an_embedder_the_heads_stay_prose():
    hows = _gates(TWO_HEADS, False)
    assert all(not h.startswith("embedding") for h in hows.values())
