"""Attribution and citation spans never cross what the parser blanked (regression: a claim ran over a stray
``</think>`` tag, so the claim read was not the text of its span).

Reasoning tags and traces, struck-through passages and folded repeats are blanked
(spaces, offsets kept) before the parser reads an answer. An attribution's claim
stops where a blanked stretch starts, a citation's year or title is never read
across one, and a claim keeps the answer's own characters (a curly quote, a
hard-wrapped line break). Texts written for this test; readings labelled by hand.
"""

from __future__ import annotations

from ipb.scoring.parse import parse_response

BUFFETT = "buffett_acquisition_checklist"


def _attributions(text: str) -> list[tuple[str, str]]:
    out = []
    for a in parse_response(text, BUFFETT, embedder=False).attributions:
        assert a.claim in text[a.span[0] : a.span[1]]
        out.append((a.claim, text[a.span[0] : a.span[1]]))
    return out


def test_a_claim_stops_at_a_stray_reasoning_tag() -> None:
    text = "</think>Buffett wrote that Circle of Competence</think>Circle of Competence"  # hypothesis found this one
    assert _attributions(text) == [("Circle of Competence", "Buffett wrote that Circle of Competence")]


def test_a_claim_stops_at_a_struck_passage() -> None:
    text = "Munger said that good businesses ~~rarely~~ compound for decades."
    assert _attributions(text) == [("good businesses", "Munger said that good businesses ")]


def test_no_attribution_when_a_tag_separates_the_name_from_the_verb() -> None:
    assert _attributions("ok</think>\nMunger </think>said that good businesses compound.") == []


def test_a_hard_wrapped_claim_is_kept_as_written() -> None:
    text = "Gate 1 PROCEED.\nBuffett wrote that the best businesses keep their moats\nwide for decades, and so on.\n"
    claim = "the best businesses keep their moats\nwide for decades, and so on"
    assert _attributions(text) == [(claim, "Buffett wrote that " + claim)]


def test_citations_are_not_read_across_a_stray_tag() -> None:
    def cited(text: str) -> list[tuple[str | None, str, int | None, str]]:
        return [(c.entity, c.document, c.year, text[c.span[0] : c.span[1]])
                for c in parse_response(text, BUFFETT, embedder=False).citations]

    assert cited("ok</think>\nAs the 1986 </think>letter to shareholders put it, moats matter.") == []
    assert cited("ok</think>\nAs the 1986 letter to shareholders put it, moats matter.") == [
        (None, "letter to shareholders", 1986, "1986 letter to shareholders")]
    assert cited("ok</think>\nSee *Margin </think>of Safety* (1991).") == []
    assert cited("ok</think>\nBerkshire Hathaway </think>annual report (1986) says so.") == [
        (None, "annual report", 1986, "annual report (1986)")]
