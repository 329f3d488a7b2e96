"""Stop 56 (issue 13): gate terms for the languages of the n52 blind batch that had verdict words but no gate nouns:
Swiss German (gsw), Corsican (co), Low German (nds), Aragonese (an), Hawaiian (haw), Neapolitan (nap) and Romansh
(rm). A writer in these languages heads a criterion with its key noun ("Priis", "Schulde", "pretsch"), so without
terms an answer that names its gates only so had no gate recognised at all.

Every expected value is worked by hand from the card's gates (given beside each card constant) and the words'
meaning. The texts are written for these tests; none is a corpus case.
"""

from __future__ import annotations

import re

import pytest
import yaml

from ipb.scoring.parse import parse_response
from tests.scoring.parse_support import _ROOT, gate_reading, read_gates, words_in_earlier_tuned_answers

#: Munger's quality card: 1 Understandable Business, 2 High Return on Capital, 3 Durable Competitive Advantage,
#: 4 Trustworthy Management, 5 Fair Price.
MUNGER = "munger_business_quality_price"
#: Buffett's buyback card: gate 2 is the intrinsic-value test.
BUYBACK = "buffett_share_repurchase"
#: Graham's seven tests: 2 Sufficiently Strong Financial Condition (debt), 3 Earnings Stability,
#: 4 Dividend Record, 5 Earnings Growth.
GRAHAM = "graham_seven_tests_defensive"
#: Dalio's debt supercycle card: gate 1 Long-Term Debt Cycle Phase.
DALIO = "dalio_debt_supercycle_navigation"

NEW_CODES = ("gsw", "co", "nds", "an", "haw", "nap", "rm")


@pytest.mark.parametrize("heading, card, gate", [
    ("Priis", MUNGER, 5),                    # GSW price
    ("Pries", MUNGER, 5),                    # NDS price
    ("Pretsch", MUNGER, 5),                  # RM price
    ("Kumukūʻai", MUNGER, 5),                # HAW price, with the ʻokina
    ("Kumuku'ai", MUNGER, 5),                # HAW price, the ʻokina typed as an apostrophe, no macron
    ("Gschäftsleitig", MUNGER, 4),           # GSW management
    ("Direcziun", MUNGER, 4),                # RM management
    ("Geschäftsföhrung", MUNGER, 4),         # NDS management
    ("Innere Wärt", BUYBACK, 2),             # GSW intrinsic value
    ("Verschuldig", GRAHAM, 2),              # GSW indebtedness
    ("Debitu", GRAHAM, 2),                   # CO debt
    ("Debbeto", GRAHAM, 2),                  # NAP debt
    ("Schullen", GRAHAM, 2),                 # NDS debts
    ("Gwünn", GRAHAM, 3),                    # GSW profit
    ("Prufittu", GRAHAM, 3),                 # CO profit
    ("Gudogn", GRAHAM, 3),                   # RM profit
    ("Dividände", GRAHAM, 4),                # GSW dividend
    ("Wassdom", GRAHAM, 5),                  # NDS growth
    ("Creschientscha", GRAHAM, 5),           # RM growth
    ("Creiximiento", GRAHAM, 5),             # AN growth
    ("Schuldezyklus", DALIO, 1),             # GSW debt cycle (the new cycle concept)
])
def test_a_new_gate_term_names_its_gate_under_the_review_bar(heading: str, card: str, gate: int) -> None:
    # without a term no gate of the card is named at all (a parse failure); with it the gate reads PROCEED, at the
    # confidence of a term (under the 0.7 review bar)
    reading = gate_reading(f"{heading}: 12. PASS.\n", card, gate)
    assert reading is not None and reading[0] == "PROCEED" and reading[1] < 0.7


def test_a_swiss_german_answer_named_by_terms_only_is_no_parse_failure() -> None:
    # two paragraphs in Swiss German, each naming its gate by a key noun; before the terms the parser found no gate
    text = ("Gschäftsleitig: d Familie hät 40% und zahlt sich nüt Übertribnigs. PASS.\n"
            "Priis: z tüür, 35 mal de Gwünn. FAIL.\n")
    result = parse_response(text, MUNGER, embedder=False)
    assert result.status == "ok", result.reason
    assert [(g.gate, g.verdict) for g in result.gates] == [(4, "PROCEED"), (5, "REJECT")]


def _new_terms() -> dict[str, set[str]]:
    doc = yaml.safe_load((_ROOT / "grammar" / "gate_terms.yaml").read_text(encoding="utf-8"))
    out: dict[str, set[str]] = {}
    for entry in doc["terms"]:
        for code in NEW_CODES:
            for word in entry.get(code, ()):
                out.setdefault(word.lower(), set()).add(entry["about"])
    return out


def test_every_new_language_has_terms_and_no_term_names_two_concepts() -> None:
    doc = yaml.safe_load((_ROOT / "grammar" / "gate_terms.yaml").read_text(encoding="utf-8"))
    for code in NEW_CODES:
        assert any(code in entry for entry in doc["terms"]), code
    # a new term listed under one concept may stand under another only if that concept means the same in the other
    # language too (none does): each new term belongs to one concept across the whole table
    owners: dict[str, set[str]] = {}
    for entry in doc["terms"]:
        for code, words in entry.items():
            if code not in ("about", "en"):
                for word in words:
                    owners.setdefault(word.lower(), set()).add(entry["about"])
    assert {w: owners[w] for w in _new_terms() if len(owners[w]) > 1} == {}


def test_no_new_term_occurs_in_an_earlier_tuned_corpus_answer() -> None:
    # A term names its gate wherever it stands, so a new one that is a word of an earlier answer (in any language)
    # could change that answer's reading. Terms that another language lists already (Corsican "prezzu" is Sicilian's,
    # Aragonese "preu" Catalan's, Low German "Winst" Dutch's, Romansh "dividenda" Czech's, Corsican "dividendu"
    # Asturian's) read nothing new and are left out of the check. Heldout answers are never read.
    doc = yaml.safe_load((_ROOT / "grammar" / "gate_terms.yaml").read_text(encoding="utf-8"))
    old = {w.lower() for entry in doc["terms"] for code, words in entry.items()
           if code not in ("about", "en", *NEW_CODES) for w in words}
    new = {w for w in _new_terms() if w not in old and re.search(r"[a-z]", w)}
    assert {"priis", "schulde", "pretsch", "schuldezyklus"} <= new
    assert words_in_earlier_tuned_answers(new, 52) == []


# ---------------------------------------------------------------- a dataset row: the prompt field is not the answer

def test_a_dataset_rows_prompt_field_is_not_read_as_the_answer() -> None:
    # a JSON-lines row of a fine-tuning set: the prompt lists the criteria (Fair Price first, with an example verdict
    # word) and the completion judges them; only the completion is the answer, so management comes first and the
    # prompt's "Fair Price: PASS" example is no verdict
    row = ('{"prompt": "<|im_start|>user\\nJudge Fair Price (e.g. Fair Price: PASS) and then Trustworthy '
           'Management.<|im_end|>\\n", "completion": "Trustworthy Management: PASS, the founders own 40% and '
           'take modest pay.\\nFair Price: FAIL, 38 times earnings is too dear."}\n')
    assert read_gates(row, MUNGER) == [(4, "PROCEED"), (5, "REJECT")]


def test_a_row_whose_answer_is_a_short_label_keeps_its_prompt() -> None:
    # a multiple-choice row ("answer": "B") is no answer text: its question stays readable
    row = '{"question": "Fair Price: FAIL, 38 times earnings.", "answer": "B"}\n'
    assert read_gates(row, MUNGER) == [(5, "REJECT")]


# ---------------------------------------------------------------- "never add without ...": a standing rule, no final

#: Soros's sizing card: 1 Thesis Confirmation, 2 Payoff Asymmetry, ...; outcomes SIZE_UP (pass) and CUT (fail).
SOROS = "soros_conviction_weighted_position_sizing"


@pytest.mark.parametrize("rule", [
    "I never add without running my checks.",      # the act always comes after the checks: no CUT
    "We don't buy without a margin of safety.",    # the same with "don't"
])
def test_a_negated_act_followed_by_without_is_a_rule_not_the_final(rule: str) -> None:
    text = f"{rule}\nThesis Confirmation: PASS, the story is playing out.\n"
    assert parse_response(text, SOROS, embedder=False).final_verdict is None


@pytest.mark.parametrize("text", [
    "I never add to a loser.\nThesis Confirmation: FAIL.\n",        # no "without": the negated act stands
    "I would not add, without doubt.\nThesis Confirmation: FAIL.\n",  # "without" in another clause after the comma
])
def test_a_negated_act_without_the_rule_shape_is_still_the_other_outcome(text: str) -> None:
    assert parse_response(text, SOROS, embedder=False).final_verdict == "CUT"


def test_the_without_check_reads_a_bounded_window_on_a_long_run_of_spaces() -> None:
    # ReDoS guard (style of test_redos_s55): the pattern is matched at the outcome word's end within 12 characters,
    # so a run of 200,000 spaces before "without" costs one short match, and no match (the word is too far)
    from ipb.scoring.parse._final import _WITHOUT_AFTER
    text = "add" + " " * 200_000 + "without"
    assert _WITHOUT_AFTER.match(text, 3, 3 + 12) is None
    assert _WITHOUT_AFTER.match("add without", 3, 3 + 12) is not None


# ---------------------------------------------------------------- a lean after the final label: no committed final

#: Klarman's downside-first card: 1 Downside Assessment, 2 Margin of Safety, 3 Position Sizing; INVEST / DECLINE.
KLARMAN = "klarman_downside_first_process"
_KLARMAN_BODY = "Downside Assessment: PROCEED, the floor is the cash.\nMargin of Safety: REJECT, only 10% under value.\n\n"


@pytest.mark.parametrize("closing", [
    "Final verdict: leaning DECLINE, pending the audit.",
    "Final verdict: I'd lean DECLINE on what we know.",
    "On balance this leans toward DECLINE, though the audit could change it.",
])
def test_a_lean_toward_an_outcome_is_no_committed_final(closing: str) -> None:
    # a lean is the writer's inclination, not a verdict: no final, and the gates' implied outcome is DECLINE
    result = parse_response(_KLARMAN_BODY + closing + "\n", KLARMAN, embedder=False)
    assert (result.final_verdict, result.implied_final_verdict) == (None, "DECLINE")


@pytest.mark.parametrize("closing, outcome", [
    ("I was leaning INVEST, but DECLINE.", "DECLINE"),   # the lean left for a committed word
    ("Final verdict: DECLINE.", "DECLINE"),              # no lean
    ("Final verdict: clean DECLINE.", "DECLINE"),        # "clean" is no lean verb (whole words only)
])
def test_a_committed_final_beside_or_without_a_lean_is_read(closing: str, outcome: str) -> None:
    assert parse_response(_KLARMAN_BODY + closing + "\n", KLARMAN, embedder=False).final_verdict == outcome


def test_the_lean_check_reads_a_bounded_window() -> None:
    # ReDoS guard: searched in the 80 characters before the outcome word and anchored at their end
    from ipb.scoring.parse._final import _LEAN_ON
    assert _LEAN_ON.search(("lean " * 40_000)[:80] + "x") is None
    assert _LEAN_ON.search("we are leaning towards ") is not None
