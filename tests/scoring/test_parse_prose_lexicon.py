"""The appraisal lexicon as data (grammar/appraisals.yaml; scoring/parse/_appraisal_words.py) and the signals a gate
watches for (issue 13, gates discussed in prose without their names).

Every text here is written for this test and labelled by hand. A gate with a ``reject`` test and no ``proceed`` test
watches for a warning sign (the bubble gauge's indicators): "flagged" says the sign is there (REJECT), "not flagged"
or "quiet" that it is not (PROCEED). The same words say nothing about a gate that does not watch for a sign.
"""

from __future__ import annotations

import pytest
from ipb.scoring.parse import parse_response
from ipb.scoring.parse._appraisal_words import (
    compile_lexicon,
    lexicon_for,
    load_lexicon,
)
from ipb.scoring.parse._prose import appraisals

from ipb.errors import ErrorGroup, LoadError
from tests.scoring.parse_support import read_gates

GAUGE = "dalio_bubble_detection_gauge"  # 1 prices high vs traditional measures, ..., 4 bullish sentiment, 5 leverage
MUNGER = "munger_business_quality_price"  # 1 understandable, 2 return on capital, 3 durable advantage, 4 people, 5 price


# --------------------------------------------------------------------------- signals a gate watches for

def test_an_indicator_recap_reads_each_signal_from_flagged_and_quiet() -> None:
    text = ("Our weekly bubble check on the Korean market.\n\n"
            "Valuations against traditional yardsticks sit at the 88th percentile: flagged. Margin debt, the leveraged "
            "buying the gauge watches, is at the 20th percentile; not flagged. Investor sentiment is at the 45th "
            "percentile and quiet.\n")
    assert read_gates(text, GAUGE) == [(1, "REJECT"), (5, "PROCEED"), (4, "PROCEED")]


def test_neither_flagged_after_a_signal_reads_it_clear() -> None:
    text = "Bullish sentiment sits at the 40th percentile, and it is neither flagged nor close to it."
    assert read_gates(text, GAUGE) == [(4, "PROCEED")]


def test_signal_words_say_nothing_about_a_gate_that_does_not_watch_for_a_sign() -> None:
    s = "returns on capital: flagged"
    assert appraisals(s, 0, len(s), None, watch=False) == []
    assert [(s[a:b], v) for a, b, v in appraisals(s, 0, len(s), None, watch=True)] == [("flagged", "REJECT")]
    text = "Return on tangible capital is what the screen flagged. Nothing more to say today."
    result = parse_response(text, MUNGER, embedder=False)
    # a fact and a screen's flag: no appraisal of the criterion. The sentence discusses return on capital, so the gate is
    # detected with no verdict (s28: the corpus README's bare fact, '-'; this pin read no gate before)
    assert [(g.gate, g.verdict) for g in result.gates] == [(2, None)]


def test_at_present_is_no_signal() -> None:
    s = "at present, leverage runs at the 30th percentile"
    assert appraisals(s, 0, len(s), None, watch=True) == []


def test_a_tally_of_the_gates_is_no_gate_of_its_own() -> None:
    # "lit up" is a signal word, and the sentence's other words might lean to one gate: a tally counts the gates as a
    # group ("five of the seven"), so it names none of them
    text = "The whole gauge, stimulus and all: five of the seven lit up in the spring."
    result = parse_response(text, GAUGE, embedder=False)
    assert [(g.gate, g.verdict) for g in result.gates] == []


def test_a_count_of_something_else_is_no_tally() -> None:
    text = ("A regional lender. Its advantage is not durable: two of its nine states capped rates this year.\n\n"
            "DECLINE.")
    assert read_gates(text, MUNGER) == [(3, "REJECT")]


# --------------------------------------------------------------------------- directions

def test_too_high_is_a_failure_whichever_way_the_criterion_runs() -> None:
    # before the lexicon was data, "too high" took the opposite of the gate's direction: PROCEED for a criterion whose
    # higher values move toward REJECT (a drawdown)
    s = "the drawdown is too high"
    assert appraisals(s, 0, len(s), "REJECT") == [(16, 24, "REJECT")]
    assert appraisals(s, 0, len(s), "PROCEED") == [(16, 24, "REJECT")]
    assert appraisals(s, 0, len(s), None) == []  # no direction declared: not read
    s = "the drawdown is high"
    assert appraisals(s, 0, len(s), "REJECT") == [(16, 20, "REJECT")]
    assert appraisals(s, 0, len(s), "PROCEED") == [(16, 20, "PROCEED")]


# --------------------------------------------------------------------------- the data file

def test_the_shipped_lexicon_loads_and_keeps_its_order() -> None:
    lex = lexicon_for(MUNGER)
    m = lex.regex.search("the moat is too hard to judge")
    assert m is not None and m.group(0) == "too hard" and lex.entry(m).verdict == "REJECT"
    m = lex.regex.search("a wide margin of safety")
    assert m is not None and m.group(0) == "a wide margin of safety" and lex.entry(m).verdict == "PROCEED"


_OK_HEAD = "version: 1\nappraisals:\n  - about: sound\n    verdict: PROCEED\n    phrases: [sound]\n"


def test_a_cards_own_phrases_come_first_and_match_as_plain_words() -> None:
    common, cards = load_lexicon(_OK_HEAD + "cards:\n  my_card:\n    - about: a covered payout\n      verdict: PROCEED\n"
                                 "      phrases: [well-covered, sound enough]\n    - about: unsound\n      verdict: REJECT\n"
                                 "      phrases: [sound as a leaky boat]\n", "mine.yaml")
    lex = compile_lexicon([*cards["my_card"], *common])
    s = "the dividend is well covered, and the balance sheet is sound as a leaky boat"
    assert [(s[a:b], v) for a, b, v in appraisals(s, 0, len(s), None, lexicon=lex)] == [
        ("well covered", "PROCEED"), ("sound as a leaky boat", "REJECT")]
    s = "the balance sheet is sound"
    assert appraisals(s, 0, len(s), None, lexicon=lex) == [(21, 26, "PROCEED")]


BROKEN = [
    pytest.param(_OK_HEAD.replace("PROCEED", "MAYBE"), "schema:enum", 4, id="unknown-verdict"),
    # an unknown field is located at its own key (line 6), not at its entry (line 3): engine/_json's formatter
    pytest.param(_OK_HEAD + "    colour: red\n", "schema:additionalProperties", 6, id="unknown-field"),
    pytest.param(_OK_HEAD.replace("phrases: [sound]", "patterns: ['(?:sound']"), "appraisal-pattern", 5, id="bad-regex"),
    pytest.param(_OK_HEAD.replace("phrases: [sound]", "patterns: ['(?P<x>sound)']"), "appraisal-pattern", 5, id="named-group"),
    pytest.param(_OK_HEAD.replace("phrases: [sound]", "patterns: ['(?i)sound']"), "appraisal-pattern", 5, id="inline-flag"),
    pytest.param(_OK_HEAD + "cards:\n  mine:\n    - about: x\n      verdict: REJECT\n      patterns: [bad]\n",
                 "schema:additionalProperties", 10, id="card-pattern"),
    pytest.param(_OK_HEAD.replace("phrases: [sound]", "phrases: ['so|und']"), "schema:pattern", 5, id="phrase-not-plain"),
    pytest.param(_OK_HEAD.replace("version: 1", "version: 2"), "schema:const", 1, id="version"),
]


@pytest.mark.parametrize(("text", "rule", "line"), BROKEN)
def test_a_broken_lexicon_names_file_line_and_rule(text: str, rule: str, line: int) -> None:
    with pytest.raises((LoadError, ErrorGroup)) as info:
        load_lexicon(text, "broken.yaml")
    err = info.value
    errors = err.errors if isinstance(err, ErrorGroup) else [err]
    found = [e for e in errors if e.rule == rule]
    assert found, [e.rule for e in errors]
    assert found[0].file == "broken.yaml" and found[0].line == line and found[0].column is not None


def test_an_unknown_lexicon_field_is_named_with_the_fields_allowed() -> None:
    with pytest.raises(LoadError) as info:
        load_lexicon(_OK_HEAD + "    phrase: [x]\n", "broken.yaml")
    err = info.value
    assert str(err.message).startswith("unknown field 'phrase' in an appraisal; expected one of: about, verdict")
    assert err.name == "phrase" and err.suggestion is not None and "phrases" in err.suggestion
    assert (err.line, err.column) == (6, 5)


def test_every_problem_in_a_lexicon_is_reported() -> None:
    text = _OK_HEAD.replace("PROCEED", "MAYBE") + "  - about: other\n    verdict: NOPE\n    phrases: [x1]\n"
    with pytest.raises(ErrorGroup) as info:
        load_lexicon(text, "broken.yaml")
    assert len(info.value.errors) >= 2


# --------------------------------------------------------------------------- a named gate, concluded in the next sentence

LYNCH = "lynch_six_category_framework"  # 1 category, 2 price versus growth, 3 balance sheet strength, 4 category story


def test_a_sentence_naming_a_gate_leaves_its_conclusion_to_the_next() -> None:
    # the gate is named by an alias ("debt to equity"), the next sentence of the paragraph concludes without naming any
    text = ("Our notes on Harlow Foods.\n\nThen the debt to equity question, which took an afternoon of digging through "
            "the filings. What we found is comfortably fine for a grocer.\n\nINVEST.")
    assert read_gates(text, LYNCH) == [(3, "PROCEED")]


def test_the_next_sentence_about_another_gates_facts_does_not_conclude_the_named_one() -> None:
    text = ("Our notes on Harlow Foods.\n\nThen the debt to equity question, which took an afternoon of digging through "
            "the filings. Earnings growth against the multiple looks comfortably fine.\n\nINVEST.")
    assert read_gates(text, LYNCH) == [(3, None), (2, "PROCEED")]
