"""JSON-shaped answers (issue 13, layouts): persona-bot objects, dict reprs, booleans, per-gate sub-objects.

Every text here was written for this file, in the shapes investor-persona agents print (a top-level
``signal`` / ``confidence`` / ``reasoning`` object, one sub-object per criterion with its own
``signal`` or ``score``, booleans per check, a Python dict repr, a one-line object); the expected
readings are labelled by hand as the corpus README says. Regression kind: JSON answers read as
prose (gates missing, a gate's signal taken for the final verdict, ``"passed": false`` read as a pass).
"""

from __future__ import annotations

import doctest
import json

import ipb.scoring.parse._json_answer as json_answer_module
import ipb.scoring.parse._json_scan as json_scan_module
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from ipb.scoring.parse import parse_response
from ipb.scoring.parse._json_answer import json_view, scan_json

from tests.scoring.parse_support import read_gates

BUFFETT = "buffett_acquisition_checklist"

# (id, card, text, hand-labelled gates, hand-labelled final verdict)
CASES = [
    ("booleans-per-check", BUFFETT,
     ('{\n  "ticker": "LMNQ",\n  "circle_of_competence": true,\n  "economic_moat": true,\n'
     '  "management_integrity": false,\n  "signal": "bearish",\n  "confidence": 0.64\n}'),
     [(1, "PROCEED"), (2, "PROCEED"), (3, "REJECT")], "DECLINE"),
    ("passed-key-false", BUFFETT,
     ('{\n  "checks": [\n    {"criterion": "circle_of_competence", "passed": true},\n'
     '    {"criterion": "economic_moat", "passed": false}\n  ],\n  "signal": "bearish"\n}'),
     [(1, "PROCEED"), (2, "REJECT")], "DECLINE"),
    ("failure-key-true", BUFFETT,
     ('{"economic_moat": {"red_flag": false, "note": "contracts run 12 years"},\n'
     ' "management_integrity": {"red_flag": true, "note": "two restatements since 2021"},\n'
     ' "signal": "bearish"}'),
     [(2, "PROCEED"), (3, "REJECT")], "DECLINE"),
    ("one-line-gate-signals", BUFFETT,
     ('{"VRDN": {"circle_of_competence": {"signal": "bullish", "details": "a regional water utility"}, '
     '"economic_moat": {"signal": "bullish", "details": "a licensed monopoly"}, '
     '"margin_of_safety": {"signal": "bearish", "details": "27x earnings, well above our value"}}, '
     '"signal": "bearish", "confidence": 57}'),
     [(1, "PROCEED"), (2, "PROCEED"), (5, "REJECT")], "DECLINE"),
    ("gate-signal-is-not-the-final", BUFFETT,
     ('{"signal": "bullish", "confidence": 70, "analysis": {'
     '"economic_moat": {"signal": "bullish", "details": "brand and distribution"}, '
     '"margin_of_safety": {"signal": "bearish", "details": "only 5% under our estimate"}}}'),
     [(2, "PROCEED"), (5, "REJECT")], "INVEST"),
    ("python-dict-repr", BUFFETT,
     ("{'signal': 'bullish', 'confidence': 73.0, 'checks': {'circle_of_competence': 'PASS', "
     "'economic_moat': 'PASS', 'margin_of_safety': 'PASS'}, 'reasoning': 'Simple, durable and cheap; it\\'s a buy.'}"),
     [(1, "PROCEED"), (2, "PROCEED"), (5, "PROCEED")], "INVEST"),
    ("neutral-signal", BUFFETT,
     ('{"signal": "neutral", "confidence": 40,\n "circle_of_competence": "pass",\n "economic_moat": "pass",\n'
     ' "management_integrity": "unknown - no proxy statement yet"}'),
     [(1, "PROCEED"), (2, "PROCEED"), (3, "INCONCLUSIVE")], "INCONCLUSIVE"),
    ("score-against-stated-mark", BUFFETT,
     ('{\n  "signal": "bearish",\n  "confidence": 60,\n'
     '  "economic_moat": {"score": 8, "max_score": 10, "pass_threshold": 6, "details": "retention 96%"},\n'
     '  "management_integrity": {"score": 3, "max_score": 10, "pass_threshold": 6, "details": "insider selling"},\n'
     '  "margin_of_safety": {"score": 5, "max_score": 10, "details": "close to fair value"}\n}'),
     [(2, "PROCEED"), (3, "REJECT"), (5, None)], "DECLINE"),
    ("keys-by-part-of-a-name", "dalio_economic_machine_positioning",
     ('{"growth": "1.3pp under consensus, a material miss", "inflation": "0.9pp over breakevens; material", '
     '"credit": "impulse -1.1% of GDP, confirms the slowdown", "quadrant": "growth down, inflation up", '
     '"tilt": "linkers and gold to 40% of risk, under the 50% cap", "decision": "TILT_TO_INFLATION_LINKED_BONDS_AND_GOLD"}'),
     [(1, "PROCEED"), (2, "PROCEED"), (3, "PROCEED"), (4, "PROCEED"), (5, "PROCEED")], "TILT_TO_INFLATION_LINKED_BONDS_AND_GOLD"),
    ("array-objects-with-signals", BUFFETT,
     ('{\n  "criteria": [\n    {"criterion": "Circle of Competence", "signal": "bullish"},\n'
     '    {"criterion": "Economic Moat", "signal": "bearish", "details": "a commodity product"}\n  ],\n  "signal": "bearish"\n}'),
     [(1, "PROCEED"), (2, "REJECT")], "DECLINE"),
    ("named-objects-passed", BUFFETT,
     '[\n  {"name": "Economic Moat", "passed": false, "note": "no pricing power"},\n  {"name": "Management Integrity", "passed": true}\n]',
     [(2, "REJECT"), (3, "PROCEED")], None),
    ("reasoning-as-a-list", BUFFETT,
     ('{"signal": "bearish", "confidence": 66, "reasoning": ["Circle of competence: a bank we understand, passes.", '
     '"Moat: deposits are sticky, passes.", "Management: the CEO misled investors about losses, fails."]}'),
     [(1, "PROCEED"), (2, "PROCEED"), (3, "REJECT")], "DECLINE"),
    ("yaml-booleans", BUFFETT,
     "signal: bearish\nconfidence: 64\ncircle_of_competence: true\neconomic_moat: true\nmanagement_integrity: false",
     [(1, "PROCEED"), (2, "PROCEED"), (3, "REJECT")], "DECLINE"),
    ("fenced-yaml-yes-no", BUFFETT,
     "```yaml\nsignal: bearish\nchecks:\n  circle_of_competence: yes\n  economic_moat: yes\n  management_integrity: no\n```",
     [(1, "PROCEED"), (2, "PROCEED"), (3, "REJECT")], "DECLINE"),
    ("a-fact-key-is-no-verdict", BUFFETT,
     '{"economic_moat": {"is_cyclical": true, "passed": false}, "margin_of_safety": "yes"}',
     [(2, "REJECT"), (5, "PROCEED")], None),
    ("compact-json", BUFFETT,
     '{"signal":"bullish","economic_moat":true,"margin_of_safety":{"signal":"bearish","details":"30x earnings"}}',
     [(2, "PROCEED"), (5, "REJECT")], "INVEST"),
]


@pytest.mark.parametrize("case_id, card, text, gates, final", CASES, ids=[c[0] for c in CASES])
def test_json_answer_reads_as_labelled(case_id: str, card: str, text: str, gates: list[tuple[int, str | None]], final: str | None) -> None:
    assert read_gates(text, card) == gates
    result = parse_response(text, card, embedder=False)
    assert result.final_verdict == final
    assert result.invented == []


def test_ascii_escaped_json_reads_as_its_characters() -> None:
    """``json.dumps`` escapes every non-ASCII character: a check mark is "\\u2705", "doesn't" with a typographic
    apostrophe is "doesn\\u2019t". A reader sees the characters; so must the parser (on main: gate 2 without its
    cross and gate 3 read PROCEED, the negation lost)."""
    answer = {"signal": "bearish", "confidence": 61, "circle_of_competence": "\u2705 pass",
              "economic_moat": "\u274c a commodity product",
              "management_integrity": "The board doesn\u2019t pass our integrity test: two restatements."}
    text = json.dumps(answer, indent=2)
    assert "\\u2019" in text and "\\u2705" in text
    assert read_gates(text, BUFFETT) == [(1, "PROCEED"), (2, "REJECT"), (3, "REJECT")]
    result = parse_response(text, BUFFETT, embedder=False)
    assert result.final_verdict == "DECLINE"
    start = result.gates[0].verdict_span[0]  # a decoded word's span starts where its escape starts
    assert text[start : start + 6] == "\\u2705" or text[slice(*result.gates[0].verdict_span)] == "pass"


def test_module_examples_run() -> None:
    # the scanner and the view (scan_json, json_view) live in _json_scan, their examples with them
    assert doctest.testmod(json_answer_module).failed == 0
    scan = doctest.testmod(json_scan_module)
    assert scan.failed == 0 and scan.attempted > 0


def test_field_keys_are_never_gates() -> None:
    """ticker, confidence, signal, reasoning, details, score: the answer's data about itself, never an invented gate."""
    text = ('{"ticker": "OKR", "signal": "bearish", "confidence": 81, "score": 3, "max_score": 10,\n'
            ' "details": {"summary": "pass", "analysis": "fail"},\n'
            ' "reasoning": "The moat is narrow and fails the test: two rivals cut prices every year."}')
    result = parse_response(text, BUFFETT, embedder=False)
    assert result.invented == []
    assert [(g.gate, g.verdict) for g in result.gates] == [(2, "REJECT")]
    assert result.final_verdict == "DECLINE"


def test_spans_point_at_the_original_key_and_value() -> None:
    text = "{'economic_moat': True, 'management_integrity': False, 'signal': 'bearish'}"
    result = parse_response(text, BUFFETT, embedder=False)
    spans = {g.gate: (text[slice(*g.mention)], text[slice(*g.verdict_span)] if g.verdict_span else None) for g in result.gates}
    assert spans == {2: ("economic_moat", "True"), 3: ("management_integrity", "False")}


@pytest.mark.parametrize("text", [
    '{"economic_moat": "pass", "signal": "bull',
    "{" * 5000 + '"a": 1',
    "[" * 5000,
    "{'circle_of_competence': 'it's simple', 'moat': }",
    '```json\n{"economic_moat": tru\n```\nThe moat passes.',
    '{"a": "\\', '{"a"', "{,,,}", "{'x': [1, 2, {'y': None}]}",
], ids=["cut-short", "deep-objects", "deep-arrays", "stray-apostrophe", "bad-literal-in-fence", "trailing-backslash",
        "key-only", "commas", "python-literals"])
def test_bad_json_never_raises(text: str) -> None:
    result = parse_response(text, BUFFETT, embedder=False)
    assert result.status in ("ok", "parse_failure")
    view = json_view(text, scan_json(text))
    assert len(view) == len(text)


def test_scan_reads_in_document_order_and_skips_prose() -> None:
    text = 'Intro line.\n```json\n{"b": {"c": true}, "a": [1, {"d": "x"}]}\n```\nA brace { in prose.\n{"z": 1}'
    blocks = scan_json(text)
    assert [[k for k, _, _ in b.pairs] for b in blocks] == [["b", "a"], ["z"]]
    _key, (start, end), value = blocks[0].pairs[0]
    assert text[start:end] == "b" and value.kind == "object" and text[value.start : value.end] == '{"c": true}'


_JSONISH = st.recursive(
    st.one_of(st.booleans(), st.none(), st.integers(-5, 99), st.sampled_from(["pass", "fail", "bullish", "it's", 'a "q"', "x\ny", "doesn\u2019t \u2705", "\U0001f7e2 ok"])),
    lambda inner: st.one_of(st.lists(inner, max_size=4),
                            st.dictionaries(st.sampled_from(["signal", "economic_moat", "passed", "reasoning", "score", "k"]), inner, max_size=4)),
    max_leaves=12,
)


def _a_rows_first_comma(text: str, i: int) -> bool:
    """Whether the comma at ``i`` is the first one of an innermost array whose first item is a string: the only comma
    a table of rows (json_view's ``rows``) reads as its key's colon."""
    row = text.rfind("[", 0, i)
    head = text[row + 1 : i]
    return row >= 0 and "]" not in head and "," not in head and "[" not in head and head.strip()[:1] in ('"', "'")


@settings(max_examples=150, deadline=None)
@given(_JSONISH, st.booleans(), st.booleans(), st.integers(0, 40))
@example([["pass", False, None, False], ["pass", False, None, False]], False, False, 0)  # s51lang's find: a table of rows
def test_view_changes_only_spacing_and_quotes(value: object, repr_style: bool, pretty: bool, cut: int) -> None:
    """The view has the text's length and differs from it only where spacing (or a compact JSON's comma) became a line break, a quote changed
    style, a ``\\n`` escape became a line break or, in an array of rows read as a table (``[["pass", false], ["pass", false]]``,
    :func:`json_view`'s rows), a row's first comma became its key's colon; the parse of any such text keeps its spans inside the
    text."""
    text = repr(value) if repr_style else json.dumps(value, indent=2 if pretty else None)
    text = text[: len(text) - cut] if cut < len(text) else text
    view = json_view(text, scan_json(text))
    assert len(view) == len(text)
    for i, (a, b) in enumerate(zip(text, view)):
        assert (a == b or (a in " \t," and b == "\n") or {a, b} <= {"'", '"'} or (a == "\\" and b == " ") or (a == "n" and b == "\n")
                or (a == "," and b == ":" and _a_rows_first_comma(text, i))
                or "\\u" in text[max(0, i - 24) : i + 6])  # or inside a word with a \uXXXX escape, decoded
    result = parse_response(text, BUFFETT, embedder=False)
    for g in result.gates:
        for span in (g.mention, g.verdict_span):
            if span is not None:
                assert 0 <= span[0] <= span[1] <= len(text)
