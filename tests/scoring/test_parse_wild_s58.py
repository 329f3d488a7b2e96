"""Answers others write (issue 13, n54's tuned split): the general causes s58wild fixed, each on a short answer
written for this file and labelled by hand as tests/scoring/corpus/README.md says.

Regression kinds:

- **JSON decision field**: a gate object's own ``"result"`` / ``"verdict"`` / ``"passes"`` lost to a verdict word in a
  free-text string of the same object ("pay passes muster ..." beside ``"result": "FAIL"``), and an object that names
  its criterion under the card's own word for its gates (``"lens"``, ``"rule"``) was not read as a gate at all.
"""

from __future__ import annotations

import pytest

from tests.scoring.parse_support import read_gates

MUNGER_LENSES = "munger_opportunity_evaluation"

_EVIDENCE_THEN_RESULT = """```json
{
  "checks": [
    {"name": "Economics Lens", "evidence": "margins fail to hold in a slump, yet ROIC stays at 22%%", "%(key)s": %(yes)s},
    {"name": "Psychology Lens", "evidence": "pay passes muster but insiders keep selling", "%(key)s": %(no)s},
    {"name": "Mathematics Lens", "evidence": "+18%% expected against the 10%% hurdle", "%(key)s": %(yes)s}
  ]
}
```
"""


@pytest.mark.parametrize("key, yes, no", [
    ("result", '"PASS"', '"FAIL"'),
    ("verdict", '"PROCEED"', '"REJECT"'),
    ("passes", "true", "false"),
], ids=["result-field", "verdict-field", "passes-flag"])
def test_json_decision_field_outranks_evidence_string(key: str, yes: str, no: str) -> None:
    # before s58wild: gate 2 read PROCEED ("passes muster" in the evidence came first, at the field's level), and with
    # "passes" the object was split into pair lines and gate 1 read REJECT from "fail to hold"
    text = _EVIDENCE_THEN_RESULT % {"key": key, "yes": yes, "no": no}
    assert read_gates(text, MUNGER_LENSES) == [(1, "PROCEED"), (2, "REJECT"), (3, "PROCEED")]


@pytest.mark.parametrize("key", ["lens"])
def test_json_object_named_by_the_cards_own_gate_word(key: str) -> None:
    # before s58wild: no gate read at all (the objects' names were template slots, their results nobody's)
    text = ('{"review": [\n'
            f'  {{"{key}": "Economics Lens", "result": "PASS"}},\n'
            f'  {{"{key}": "Psychology Lens", "result": "FAIL"}}\n'
            ']}\n')
    assert read_gates(text, MUNGER_LENSES) == [(1, "PROCEED"), (2, "REJECT")]


# --------------------------------------------------------------------------- table legends

_MARK_TABLE = """| Lens | Mark |
|---|---|
| Economics Lens | %(a)s |
| Psychology Lens | %(b)s |
| Mathematics Lens | %(a)s |

%(key)s
"""


@pytest.mark.parametrize("a, b, key", [
    ("\u25cf", "\u25cb", "Key: \u25cf = meets the lens, \u25cb = does not."),
    ("OFF", "ON", "(legend: ON = the warning light fires, so the lens REJECTS; OFF = PROCEED)"),
    ("Y", "N", "Symbols: Y = passes, N = misses"),
], ids=["dots", "on-off-reversed", "letters"])
def test_table_marks_read_through_their_legend(a: str, b: str, key: str) -> None:
    # before s58wild: the marks were no verdict words, so gates 1 and 3 had none; gate 2 took PROCEED from the key
    # line's "meets" (dots) or nothing at all (ON / OFF)
    text = _MARK_TABLE % {"a": a, "b": b, "key": key}
    assert read_gates(text, MUNGER_LENSES) == [(1, "PROCEED"), (2, "REJECT"), (3, "PROCEED")]


def test_legend_meanings_by_hand() -> None:
    from ipb.scoring.parse._legend import legend_marks, meaning_verdict

    assert meaning_verdict("clears the bar") == "PROCEED"
    assert meaning_verdict("the flag is triggered") == "REJECT"
    assert meaning_verdict("still unclear") == "INCONCLUSIVE"
    assert meaning_verdict("a footnote follows") is None
    marks, spans = legend_marks("intro\nLegend: + = holds, - = fails\n")
    assert marks == {"+": "PROCEED", "-": "REJECT"} and spans == [(6, 34)]
    assert legend_marks("x = 3, y = 4 with no key line")[0] == {}


def test_legend_search_is_linear_on_a_long_key_line() -> None:
    import time

    from ipb.scoring.parse._legend import legend_marks

    def cost(n: int) -> float:
        text = "Key: " + "=" * n + " ON" * n
        t0 = time.process_time()
        legend_marks(text)
        return time.process_time() - t0

    cost(1000)
    assert cost(200_000) < 2.0  # a key line is read up to 400 characters, whatever follows


# --------------------------------------------------------------------------- Latin gate words

def test_latin_verdict_words_as_labels() -> None:
    # before s58wild: Latin had no block in grammar/languages.yaml, so none of these verdicts was read
    text = ("Porta I \u2014 Economics Lens: PROCEDIT.\n"
            "Porta II \u2014 Psychology Lens: REICITUR, praemia non congruunt.\n"
            "Porta III \u2014 Mathematics Lens: INCERTUM, numeri desunt.\n")
    assert read_gates(text, MUNGER_LENSES) == [(1, "PROCEED"), (2, "REJECT"), (3, "INCONCLUSIVE")]


def test_latin_negated_pass_and_gate_noun_with_ordinal() -> None:
    # "non probatur" is a REJECT, never the PROCEED of "probatur"; "porta secunda" names gate 2
    text = ("De porta prima: Economics Lens probatur.\n\n"
            "De porta secunda: non probatur, quia praepositi vendunt.\n")
    assert read_gates(text, MUNGER_LENSES) == [(1, "PROCEED"), (2, "REJECT")]
