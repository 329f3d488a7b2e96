"""Condition B gives principles, condition C the procedure (issue 15, defect 13).

The knowledge cards retrieved for condition B used to contain the executable
criteria ("PROCEED when revenue_retention >= 90% and gross_margin >= 60%"),
which made B a near copy of C. These tests check every bundled knowledge card
for any trace of an executable criterion, and check that the detector does
find them in condition C's card text (so it can fail).
"""

from __future__ import annotations

import re

import pytest

from ipb.engine.registry import bundled_card_paths, compiled_card
from ipb.errors import ScoreError
from ipb.respond.knowledge import KnowledgeBase, card_text
from ipb.scoring.embeddings import HashingEncoder

_RULE = re.compile(r"\b(?:PROCEED|REJECT|INCONCLUSIVE)\s+when\b|\bcomputes\s+\w+\s*=|\bclassifies as\b")
_OPERATOR = re.compile(r"<=|>=|==|!=|(?<=\s)[<>](?=\s)")


def executable_criteria(text: str, identifiers: set[str], sources: list[str]) -> list[str]:
    """Every trace of an executable criterion in ``text``: verdict rules, operators, identifiers, criterion text."""
    found = [m.group(0) for m in _RULE.finditer(text)] + [m.group(0) for m in _OPERATOR.finditer(text)]
    words = set(re.findall(r"\b\w+\b", text))
    found += sorted(i for i in identifiers if "_" in i and i in words)
    flat = " ".join(text.split())
    found += [s for s in sources if " " in s and s in flat]  # a bare bool input ("understandable") is a word
    return found


def _card_names():
    for path in bundled_card_paths():
        card = compiled_card(str(path)).card
        identifiers = set(card.inputs) | set(card.constants) | {g.id for g in card.gates}
        identifiers |= {name for g in card.gates for name in g.compute}
        sources = [" ".join(e.source.split()) for g in card.gates for e in g.expressions()]
        yield card, identifiers, sources


CARDS = list(_card_names())
ALL_IDENTIFIERS = set().union(*(ids for _, ids, _ in CARDS))
ALL_SOURCES = [s for _, _, sources in CARDS for s in sources]


def test_no_condition_b_knowledge_card_contains_an_executable_criterion():
    kb = KnowledgeBase.bundled()
    assert len(kb.cards) > 100
    problems = {c.id: executable_criteria(c.text, ALL_IDENTIFIERS, ALL_SOURCES) for c in kb.cards}
    assert {k: v for k, v in problems.items() if v} == {}


@pytest.mark.parametrize("card", [c for c, _, _ in CARDS], ids=lambda c: c.id)
def test_the_detector_finds_the_procedure_in_condition_c(card):
    """Condition C (the oracle card) carries the criteria: the same check flags it."""
    _, identifiers, sources = next(x for x in CARDS if x[0] is card)
    assert executable_criteria(card_text(card), identifiers, sources)


def test_the_review_example_is_gone_from_condition_b():
    kb = KnowledgeBase.bundled()
    moat = next(c for c in kb.cards if c.id == "buffett_acquisition_checklist#economic_moat")
    assert "revenue_retention" not in moat.text and "PROCEED" not in moat.text
    assert "durable competitive advantage" in moat.text  # the principle stays


def test_an_investor_outside_the_registry_is_refused_not_substituted():
    kb = KnowledgeBase.bundled()
    with pytest.raises(ScoreError) as err:
        kb.retrieve("Would Bill Ackman buy this franchise?", ["Bill Ackman"], encoder=HashingEncoder())
    assert err.value.rule == "unknown-investor" and "Bill Ackman" in str(err.value)
    # stop 33 new user: the refusal names the way in (a respond run without --investors gave no hint)
    assert "registry file passed with --investors FILE" in err.value.message
    with pytest.raises(ScoreError) as err:
        kb.retrieve("margin of safety", ["Warren Bufett"], encoder=HashingEncoder())
    assert err.value.suggestion == "Warren Buffett"


def test_a_question_naming_no_investor_says_it_searched_everyone():
    kb = KnowledgeBase.bundled()
    hit = kb.retrieve("Is the price below value?", [], k=2, encoder=HashingEncoder())
    assert hit.scope == "all_investors" and hit.to_dict()["scope"] == "all_investors"
    named = kb.retrieve("Is the price below value?", ["Buffett"], k=2, encoder=HashingEncoder())
    assert named.scope == "named" and {c.investor for c in named.cards} == {"Warren Buffett"}


def test_no_knowledge_card_states_a_card_authors_own_threshold():
    # stop 33 (s33user): required elements went to condition B verbatim, so Buffett's moat card said "retention
    # at least 90%" (moat_retention_floor, author_inferred) and Munger's fair price "expected return (at least
    # 10%)" (fair_return_hurdle): the card author's numbers, which condition B must not carry
    from ipb.engine.execute import format_value

    kb = KnowledgeBase.bundled()
    leaks = []
    for card, _, _ in CARDS:
        figures = [format_value(*(lambda v, t: (v, t.unit))(*card.constants[n])) for n in card.author_inferred]
        for k in kb.cards:
            if not k.id.startswith(card.id + "#") or "must mention:" not in k.text:
                continue
            mention = k.text.split("must mention:", 1)[1].split(". Source:", 1)[0]
            leaks += [(k.id, f) for f in figures if re.search(rf"(?<![\w.$]){re.escape(f)}(?![\w.%])", mention)]
    assert leaks == []
    moat = next(c for c in kb.cards if c.id == "buffett_acquisition_checklist#economic_moat")
    assert "What an analysis of it must mention: switching costs; pricing power; retention." in moat.text
    fair = next(c for c in kb.cards if c.id == "munger_business_quality_price#fair_price")
    assert "must mention: owner earnings yield; expected return." in fair.text
