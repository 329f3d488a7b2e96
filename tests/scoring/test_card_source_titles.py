"""A card's own source titles are read as citations when given a year in brackets, quoted or not (s38user repro 5;
paper §7.8 SAP@2: year within 1 and title within edit distance 3 of the source; no quoting is asked for).

Card ``klarman_downside_first_process`` cites Klarman's "Margin of Safety" (1991). Answers written for this test (no
corpus text).
"""

from __future__ import annotations

from ipb.scoring.parse import parse_response

CARD = "klarman_downside_first_process"
HEAD = "Downside Assessment: PROCEED. The bad case costs 12% of the price.\n"


def _citations(line: str) -> list[tuple[str, int | None]]:
    result = parse_response(HEAD + line + "\nFinal verdict: INVEST\n", CARD, embedder=False)
    return [(c.document, c.year) for c in result.citations]


def test_an_unquoted_source_title_with_its_year_is_a_citation():
    assert _citations("Klarman put loss avoidance first in Margin of Safety (1991).") == [("Margin of Safety", 1991)]


def test_the_title_without_a_year_or_quotes_is_the_gate_name_not_a_citation():
    assert _citations("The Margin of Safety gate comes second for Klarman.") == []
