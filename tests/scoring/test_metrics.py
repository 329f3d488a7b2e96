"""The per-response metrics of ``ipb.scoring.metrics`` (paper §7.3, §7.6-§7.10, §7.14, §7.15).

Hand-worked values come from ``data/metric_cases.json`` (each with its
arithmetic in ``why``); the sequence primitives are checked against
``scipy.stats.kendalltau`` and ``rapidfuzz.distance`` on hypothesis-generated
sequences; bounds and the SAP cascade are hypothesis properties. Every
embedding comparison uses the deterministic :class:`HashingEncoder`.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rapidfuzz.distance import LCSseq, Levenshtein
from scipy.stats import kendalltau

from ipb.errors import ScoreError
from ipb.scoring.embeddings import HashingEncoder
from ipb.scoring.metrics import (
    Case,
    ElementMatcher,
    InvestorProfile,
    SourceRef,
    ckca,
    comparison_direction,
    contradiction_coverage,
    edit_distance,
    element_f1,
    extract_quantities,
    gcf,
    gra_gates,
    investor_profiles,
    is_negated,
    ivp,
    ivp_table,
    kendall_tau_b,
    lcs_length,
    normalized_edit_distance,
    normalized_lcs,
    ogrs,
    pairwise_sdi,
    sap_at_k,
    sdi,
    verdict_acc,
    verdict_credit,
    weighted_kendall_tau,
)
from ipb.scoring.registry import create_metric, get_metric, metrics

DATA = Path(__file__).parent / "data"
ENC = HashingEncoder()
LETTER = {"P": "PROCEED", "R": "REJECT", "I": "INCONCLUSIVE", "N": "N/A"}


# --------------------------------------------------------------------------- builders


def grp(shorthand: str, elements: dict[str, list[str]] | None = None, kill: list[int] = (), final: Any = "DECLINE") -> dict:
    """A gold program: one gate per letter (P/R/I/N), elements by gate number."""
    program = []
    for i, letter in enumerate(shorthand, start=1):
        verdict = LETTER[letter]
        triggered = verdict == "REJECT" and i in kill
        program.append(
            {
                "gate": i,
                "name": f"Gate {i}",
                "verdict": verdict,
                "kill_criterion": f"kill_{i}" if triggered else None,
                "required_elements": list((elements or {}).get(str(i), [])),
                "kill_triggered": triggered,
                "computed_value": None,
            }
        )
    return {"framework": "test_card", "gold_program": program, "investment_verdict": final, "verdict_trigger": None}


def parsed(gates: list[list[Any]], **extra: Any) -> dict:
    """A parsed response; ``gates`` rows are [number, verdict, elements]."""
    out = {
        "status": "ok",
        "reason": None,
        "gates": [
            {"gate": n, "name": f"Gate {n}", "verdict": v, "elements": list(e), "span": [0, 0]} for n, v, e in gates
        ],
        "final_verdict": None,
        "invented_gates": [],
        "years": [],
        "attributions": [],
        "citations": [],
        "text": "",
    }
    out.update(extra)
    return out


def case(shorthand: str, gates: list[list[Any]], kill: list[int] = (), elements=None, **fields: Any) -> Case:
    fields.setdefault("encoder", ENC)
    return Case(gold=grp(shorthand, elements, kill), parsed=parsed(gates), kill_gates={k: f"kill_{k}" for k in kill},
                **fields)


def _cases() -> list[dict]:
    return json.loads((DATA / "metric_cases.json").read_text())["cases"]


# --------------------------------------------------------------------------- hand-worked golden cases


@pytest.mark.parametrize("item", _cases(), ids=lambda c: c["id"])
def test_hand_worked_values(item):
    extra = {"topology": item["topology"]} if "topology" in item else {}
    c = case(item["gold"], item["response"], kill=item["kill"], elements=item.get("elements"), **extra)
    for name, expected in item["expect"].items():
        value = get_metric(name)(c, **item.get("options", {}).get(name, {}))
        assert value == pytest.approx(expected, abs=1e-12), f"{name}: {item['why']}"


def test_three_of_six_gates_in_perfect_order_issue_example():
    c = case("PPPPPP", [[2, None, []], [4, None, []], [6, None, []]])
    assert (gcf(c), get_metric("kendall_tau")(c), ogrs(c)) == (0.5, 1.0, 0.5)


def test_gra_four_ninths_gate_detail():
    c = case("R", [[1, "PROCEED", ["price of $50 billion"]]], kill=[1],
             elements={"1": ["price $50B", "intrinsic ~$25B", "2x premium"]})
    (score,) = gra_gates(c)
    assert (score.name_match, score.verdict_match) == (1, 0)
    assert score.elements_match == pytest.approx(1 / 3)
    assert score.score == pytest.approx(4 / 9)


# --------------------------------------------------------------------------- the §7.3 rule and final verdicts


@pytest.mark.parametrize(
    "gold, predicted, credit",
    [
        ("INCONCLUSIVE", "INCONCLUSIVE", 1.0),
        ("INCONCLUSIVE", "PROCEED", 0.5),
        ("INCONCLUSIVE", "REJECT", 0.5),
        ("INCONCLUSIVE", None, 0.0),
        ("INCONCLUSIVE", "N/A", 0.0),
        ("PROCEED", "PROCEED", 1.0),
        ("PROCEED", "INCONCLUSIVE", 0.0),
        ("REJECT", "PROCEED", 0.0),
        ("FILTER", "REJECT", 1.0),  # legacy gold label (Appendix E schema note)
        ("PASS", "proceed", 1.0),
    ],
)
def test_inconclusive_rule(gold, predicted, credit):
    assert verdict_credit(gold, predicted, rule="flat") == credit


@pytest.mark.parametrize(
    "predicted, acknowledged, credit",
    [("INCONCLUSIVE", False, 1.0), ("PROCEED", True, 0.5), ("REJECT", True, 0.5), ("PROCEED", False, 0.0),
     ("REJECT", False, 0.0), (None, True, 0.0)],
)
def test_inconclusive_rule_of_appendix_a2(predicted, acknowledged, credit):
    """Appendix A.2: 1.0 for INCONCLUSIVE; 0.5 for a PROCEED/REJECT that acknowledges the data gap; 0.0 otherwise."""
    assert verdict_credit("INCONCLUSIVE", predicted, acknowledged=acknowledged) == credit


@pytest.mark.parametrize(
    "gate_text, credit",
    [
        ("Gate 1: Management Integrity. Management data not provided, so I lean PROCEED.", 0.5),
        ("Gate 1: Management Integrity. Without information on the board I mark it PROCEED.", 0.5),
        ("Gate 1: Management Integrity. Honest, shareholder-minded managers: PROCEED.", 0.0),
    ],
)
def test_a2_credit_reads_the_gates_own_text(gate_text, credit):
    text = gate_text + "\nGate 2: Moat. PROCEED, no data problem here is named."
    gates = [{"gate": 1, "name": "Gate 1", "verdict": "PROCEED", "elements": [], "span": [0, len(gate_text)]},
             {"gate": 2, "name": "Gate 2", "verdict": "PROCEED", "elements": [], "span": [len(gate_text) + 1, len(text)]}]
    c = Case(gold=grp("IP"), parsed=dict(parsed([]), gates=gates, text=text), encoder=ENC)
    assert get_metric("verdict_acc_gates")(c) == pytest.approx((credit + 1.0) / 2)
    assert get_metric("verdict_acc_gates")(c, inconclusive="flat") == pytest.approx((0.5 + 1.0) / 2)


@pytest.mark.parametrize(
    "gold, stated, expected",
    [
        ("DECLINE", "DECLINE", 1.0),
        ("DECLINE", "decline", 1.0),
        ("DECLINE", "INVEST", 0.0),
        ("DECLINE", None, 0.0),
        ("INCONCLUSIVE", "INCONCLUSIVE", 1.0),
        ("INCONCLUSIVE", "INVEST", 0.5),
        ("REDIRECT_TO_PASSIVE", "redirect to passive", 1.0),
        (None, "INVEST", None),
    ],
)
def test_final_verdict_accuracy(gold, stated, expected):
    c = Case(gold=grp("P", final=gold), parsed=parsed([], final_verdict=stated))
    assert verdict_acc(c, inconclusive="flat") == expected


def test_final_inconclusive_under_a2_needs_the_data_gap_acknowledged():
    said = Case(gold=grp("P", final="INCONCLUSIVE"), parsed=parsed([], final_verdict="INVEST"))
    hedged = Case(gold=grp("P", final="INCONCLUSIVE"),
                  parsed=parsed([], final_verdict="INVEST", text="The filings are incomplete, but INVEST."))
    assert (verdict_acc(said), verdict_acc(hedged)) == (0.0, 0.5)


# --------------------------------------------------------------------------- sequence primitives vs scipy / rapidfuzz

ranks = st.lists(st.integers(0, 4), min_size=0, max_size=9)


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_kendall_tau_b_equals_scipy_where_defined(data):
    x = data.draw(ranks)
    y = data.draw(st.lists(st.integers(0, 4), min_size=len(x), max_size=len(x)))
    ours = kendall_tau_b(x, y)
    assert -1.0 <= ours <= 1.0 and not math.isnan(ours)
    if len(x) >= 2:
        reference = kendalltau(x, y).statistic
        if not math.isnan(reference):
            assert ours == pytest.approx(reference, abs=1e-12)


@pytest.mark.parametrize(
    "x, y, expected, why",
    [
        ([], [], 1.0, "no pair"),
        ([3], [1], 1.0, "one gate"),
        ([0, 0, 0], [0, 1, 2], 1.0, "gold prescribes no order (parallel card)"),
        ([0, 1, 2], [5, 5, 5], 0.0, "response states no order"),
        ([0, 0], [0, 0], 1.0, "both constant: the gold has no order to violate"),
    ],
)
def test_kendall_tau_defined_values(x, y, expected, why):
    assert kendall_tau_b(x, y) == expected, why


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_weighted_tau_with_equal_weights_is_tau_b(data):
    x = data.draw(ranks)
    y = data.draw(st.lists(st.integers(0, 4), min_size=len(x), max_size=len(x)))
    w = data.draw(st.sampled_from([1.0, 2.0, 0.5]))
    assert weighted_kendall_tau(x, y, [w] * len(x)) == pytest.approx(kendall_tau_b(x, y), abs=1e-12)


@settings(max_examples=200, deadline=None)
@given(st.permutations(list(range(6))), st.lists(st.sampled_from([1.0, 2.0]), min_size=6, max_size=6))
def test_weighted_tau_bounds_and_identity(perm, weights):
    value = weighted_kendall_tau(list(range(6)), perm, weights)
    assert -1.0 <= value <= 1.0
    if list(perm) == list(range(6)):
        assert value == 1.0


def test_weighted_tau_rejects_bad_input():
    with pytest.raises(ScoreError):
        weighted_kendall_tau([1, 2], [1], [1, 1])
    with pytest.raises(ScoreError):
        weighted_kendall_tau([1, 2], [1, 2], [1, 0])


sequences = st.lists(st.integers(1, 7), max_size=12)


@settings(max_examples=200, deadline=None)
@given(sequences, sequences)
def test_ned_and_nlcs_equal_rapidfuzz(a, b):
    assert edit_distance(a, b) == Levenshtein.distance(a, b)
    assert lcs_length(a, b) == LCSseq.similarity(a, b)
    assert normalized_edit_distance(a, b) == pytest.approx(Levenshtein.normalized_distance(a, b), abs=1e-12)
    assert normalized_lcs(a, b) == pytest.approx(LCSseq.normalized_similarity(a, b), abs=1e-12)


@settings(max_examples=100, deadline=None)
@given(sequences, sequences)
def test_ned_nlcs_symmetry_and_bounds(a, b):
    assert normalized_edit_distance(a, b) == normalized_edit_distance(b, a)
    assert normalized_lcs(a, b) == normalized_lcs(b, a)
    assert 0.0 <= normalized_edit_distance(a, b) <= 1.0
    assert 0.0 <= normalized_lcs(a, b) <= 1.0


# --------------------------------------------------------------------------- conventions


def test_parallel_card_has_no_order_to_violate():
    reversed_answer = [[3, None, []], [2, None, []], [1, None, []]]
    assert get_metric("kendall_tau")(case("PPP", reversed_answer)) == -1.0
    assert get_metric("kendall_tau")(case("PPP", reversed_answer, topology="parallel_threshold")) == 1.0


def test_partial_program_ignores_real_unannotated_gates_in_sequences():
    # gold annotates gates 3 and 6 of a 6-gate card; the response also walks the real gates 4 and 5
    gold = grp("PP")
    gold["gold_program"][0]["gate"], gold["gold_program"][1]["gate"] = 3, 6
    resp = parsed([[3, "PROCEED", []], [4, None, []], [5, None, []], [6, "PROCEED", []]])
    c = Case(gold=gold, parsed=resp, card_gates=(1, 2, 3, 4, 5, 6))
    assert get_metric("ned")(c) == 0.0
    assert get_metric("nlcs")(c) == 1.0
    without_card = Case(gold=gold, parsed=resp)
    assert get_metric("ned")(without_card) == 0.5


def test_parse_failure_is_never_scored():
    c = Case(gold=grp("PP"), parsed={"status": "parse_failure", "reason": "binary junk", "gates": []})
    for entry in metrics.entries():
        with pytest.raises(ScoreError, match="binary junk") as err:
            entry(c)
        assert err.value.rule == "parse_failure"


@pytest.mark.parametrize(
    "gold",
    [{}, {"gold_program": []}, {"gold_program": [{"name": "no number"}]},
     {"gold_program": [{"gate": 1}, {"gate": 1}]}],
    ids=["no_program", "empty_program", "gate_without_number", "duplicate_gate"],
)
def test_malformed_gold_program_is_a_score_error(gold):
    with pytest.raises(ScoreError) as err:
        gcf(Case(gold=gold, parsed=parsed([])))
    assert err.value.rule == "grp"


def test_kill_gates_default_to_triggered_gold_gates():
    c = Case(gold=grp("PR", kill=[2]), parsed=parsed([]))
    assert c.kill_gate_numbers == {2}


# --------------------------------------------------------------------------- element matching


@pytest.mark.parametrize(
    "text, values",
    [
        ("price $50B", [(5e10, "money")]),
        ("$1.25B owner earnings at 20x", [(1.25e9, "money"), (20.0, "multiple")]),
        ("retention >= 90%", [(0.9, "ratio")]),
        ("a $50 billion price and 50,000 units", [(5e10, "money"), (50000.0, "plain")]),
        ("−5% and -$2B", [(-0.05, "ratio"), (-2e9, "money")]),
        ("two-thirds of NCAV, 2/3", [(2 / 3, "plain"), (2 / 3, "plain")]),
        ("Gate 5 Margin of safety", [(5.0, "plain")]),
        ("no numbers here", []),
    ],
)
def test_extract_quantities(text, values):
    found = sorted((q.value, q.unit) for q in extract_quantities(text))
    assert [u for _, u in found] == [u for _, u in sorted(values)]
    assert [v for v, _ in found] == pytest.approx([v for v, _ in sorted(values)])


@pytest.mark.parametrize(
    "text, direction, negated",
    [
        ("debt above 3x", "up", False),
        ("debt below 3x", "down", False),
        ("leverage over 3x", "up", False),
        ("over the long term", None, False),
        ("price does not exceed intrinsic value", "down", False),
        ("no less than 90% retention", "up", False),
        ("at most two-thirds of NCAV", "down", False),
        ("retention >= 90%", "up", False),
        ("no durable competitive advantage", None, True),
        ("the moat isn't durable", None, True),
        ("raise prices without losing customers", None, False),
        ("a business without a moat", None, True),
        ("outside the circle of competence", None, True),
        ("above 2x but below 3x", None, False),
    ],
)
def test_direction_and_negation_cues(text, direction, negated):
    assert comparison_direction(text) == direction
    assert is_negated(text) == negated


@pytest.mark.parametrize(
    "gold, detected, expected, reason",
    [
        ("debt above 3x", "debt below 3x", False, "direction"),
        ("debt above 3x", "leverage over 3x", True, "numeric"),
        ("debt above 3x", "debt above 4x", False, "numeric-mismatch"),
        ("price $50B", "$50,000M asking price", True, "numeric"),
        ("price $50B", "price $50.02B", True, "numeric"),
        ("price $50B", "price $50.2B", False, "numeric-mismatch"),
        ("intrinsic ~$25B", "intrinsic value $24B", True, "numeric"),
        ("intrinsic ~$25B", "intrinsic value $20B", False, "numeric-mismatch"),
        ("durable competitive advantage", "no durable competitive advantage", False, "negation"),
        ("price exceeds intrinsic value", "price below intrinsic value", False, "direction"),
        ("switching costs", "Switching costs!", True, "exact"),
        ("switching costs", "very high switching costs", True, "contains"),
        ("owner_earnings_or_FCF", "owner earnings or fcf", True, "exact"),
        ("pricing power", "ability to raise prices", None, "semantic"),
    ],
)
def test_element_matcher_decisions(gold, detected, expected, reason):
    assert ElementMatcher(ENC).decide(gold, detected) == (expected, reason)


def test_direction_guard_overrides_a_perfect_cosine():
    class Same:
        def encode(self, sentences):
            return [[1.0, 0.0] for _ in sentences]

    matcher = ElementMatcher(Same(), threshold=0.5)
    assert matcher.match_matrix(["price exceeds value"], ["price under value by far", "pricing"]).tolist() == [
        [False, True]
    ]  # "under" before a named quantity is read as a comparison (issue 14: it used to pass on the cosine alone)
    assert not matcher.match_matrix(["price exceeds value"], ["price is below value"]).any()
    assert not matcher.match_matrix(["a moat"], ["no moat"]).any()


def test_one_detected_element_covers_one_gold_element():
    m = ElementMatcher(ENC)
    # "price $50B and 2x premium" matches both gold numbers' elements, but counts once
    assert m.f1(["price $50B", "price $50B"], ["price $50B"]) == pytest.approx(2 / 3)
    assert element_f1([], [], m) == 1.0
    assert element_f1(["a"], [], m) == 0.0


def test_threshold_is_configurable_and_decides_semantic_pairs():
    class Fixed:
        def encode(self, sentences):
            table = {"pricing power": [1.0, 0.0], "ability to raise prices": [0.8, 0.6]}
            return [table[s] for s in sentences]

    gold, det = ["pricing power"], ["ability to raise prices"]
    assert ElementMatcher(Fixed(), threshold=0.79).f1(gold, det) == 1.0
    assert ElementMatcher(Fixed(), threshold=0.81).f1(gold, det) == 0.0
    c = case("R", [[1, "REJECT", det]], kill=[1], elements={"1": gold}, encoder=Fixed())
    assert create_metric("kccs", threshold=0.79)(c) == 1.0
    assert create_metric("kccs", threshold=0.81)(c) == 0.0


# --------------------------------------------------------------------------- bounds (hypothesis)

VOCAB = ["switching costs", "pricing power", "debt above 3x", "debt below 3x", "price $50B", "no moat", "moat",
         "owner earnings", "retention >= 90%", "2x premium"]


@st.composite
def random_case(draw):
    n = draw(st.integers(1, 7))
    letters = "".join(draw(st.lists(st.sampled_from("PRIN"), min_size=n, max_size=n)))
    kill = draw(st.lists(st.integers(1, n), unique=True, max_size=n))
    elements = {str(i): draw(st.lists(st.sampled_from(VOCAB), max_size=3)) for i in range(1, n + 1)}
    mentioned = draw(st.lists(st.integers(1, n + 2), max_size=n + 3))
    gates = [
        [g, draw(st.sampled_from([None, "PROCEED", "REJECT", "INCONCLUSIVE", "N/A"])),
         draw(st.lists(st.sampled_from(VOCAB), max_size=3))]
        for g in mentioned
    ]
    topology = draw(st.sampled_from([None, "linear_sequential", "parallel_threshold"]))
    return case(letters, gates, kill=kill, elements=elements, topology=topology, card_gates=tuple(range(1, n + 1)))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(random_case())
def test_every_metric_stays_in_its_bounds(c):
    for entry in metrics.entries():
        value = entry(c)
        if value is None:
            continue
        assert not math.isnan(value), entry.name
        low, high = entry.bounds or (-math.inf, math.inf)
        assert low - 1e-12 <= value <= high + 1e-12, (entry.name, value)
    assert get_metric("ogrs_k")(c) <= gcf(c) + 1e-12
    assert get_metric("ogrs")(c) <= gcf(c) + 1e-12


@settings(max_examples=60, deadline=None)
@given(st.permutations(list(range(1, 7))))
def test_ogrs_is_one_only_for_full_perfect_order(perm):
    c = case("PPPPPP", [[g, None, []] for g in perm])
    assert (ogrs(c) == 1.0) == (list(perm) == list(range(1, 7)))


# --------------------------------------------------------------------------- SAP@k

BUFFETT = InvestorProfile("Warren Buffett", aliases=("Buffett",))
SOURCES = (SourceRef("The Intelligent Investor", 1949, "Benjamin Graham", "Ch. 20"),
           SourceRef("Berkshire Hathaway Owner's Manual", 1996, "Warren Buffett", None))


def sap_case(attributions, citations, text="", investor=BUFFETT, sources=SOURCES):
    return Case(gold=grp("P"), parsed=parsed([], attributions=attributions, citations=citations, text=text),
                investor=investor, sources=sources)


@pytest.mark.parametrize(
    "attributions, citations, text, expected",
    [
        ([{"investor": "Buffett", "claim": "c"}], [], "", (1.0, 0.0, 0.0)),
        ([{"investor": "Warren E. Buffett", "claim": "c"}],
         [{"entity": "Buffett", "document": "Berkshire Hathaway Owners Manual", "year": 1997}], "", (1.0, 1.0, 0.0)),
        ([{"investor": "Buffett", "claim": "c"}],
         [{"entity": None, "document": "Intelligent Investor", "year": 1949}], "see Chapter 20", (1.0, 1.0, 1.0)),
        ([{"investor": "Buffett", "claim": "c"}],
         [{"entity": None, "document": "Intelligent Investor", "year": 1952}], "Chapter 20", (1.0, 0.0, 0.0)),
        ([{"investor": "Buffett", "claim": "c"}],
         [{"entity": None, "document": "The Interpretation of Dreams", "year": 1949}], "", (1.0, 0.0, 0.0)),
        ([{"investor": "Graham", "claim": "a"}, {"investor": "Graham", "claim": "b"}, {"investor": "Buffett", "claim": "c"}],
         [{"entity": "Buffett", "document": "Berkshire Hathaway Owner's Manual", "year": 1996}], "", (0.0, 0.0, 0.0)),
        ([], [], "", (0.0, 0.0, 0.0)),
        ([], [{"entity": "Warren Buffett", "document": "Berkshire Hathaway Owner's Manual", "year": 1996}], "",
         (1.0, 1.0, 0.0)),
    ],
    ids=["investor_only", "document_year_within_one_title_close", "context_chapter_verified", "year_off_by_three",
         "wrong_title", "primary_attribution_is_graham", "no_attribution", "citation_entity_as_attribution"],
)
def test_sap_levels(attributions, citations, text, expected):
    c = sap_case(attributions, citations, text)
    assert tuple(sap_at_k(c, k) for k in (1, 2, 3)) == expected


def test_sap3_reads_the_citations_locator_roman_numerals_and_ranges():
    cite = {"entity": None, "document": "Intelligent Investor", "year": 1949}
    levels = lambda c, text="", sources=SOURCES: tuple(sap_at_k(sap_case([{"investor": "Buffett", "claim": "c"}], [c], text, sources=sources), k)
                                                     for k in (1, 2, 3))
    assert levels(dict(cite, locator="chapters 18-21")) == (1.0, 1.0, 1.0)
    assert levels(dict(cite, locator="chapters 8-19")) == (1.0, 1.0, 0.0)
    assert levels(dict(cite, locator="Ch. 2")) == (1.0, 1.0, 0.0)
    roman = (SourceRef("The Intelligent Investor", 1949, "Benjamin Graham", "Part III"),)
    assert levels(dict(cite, locator="part 3"), sources=roman) == (1.0, 1.0, 1.0)
    assert levels(cite, "as Part III argues", sources=roman) == (1.0, 1.0, 1.0)
    assert levels(cite, "as Part II argues", sources=roman) == (1.0, 1.0, 0.0)


def test_sap2_credits_a_book_cited_by_its_main_title():
    # s38user: "Margin of Safety (1991)" cites Klarman's book, whose full title carries a subtitle 60 characters long
    klarman = InvestorProfile("Seth Klarman", aliases=("Klarman",))
    book = (SourceRef("Margin of Safety: Risk-Averse Value Investing Strategies for the Thoughtful Investor", 1991,
                      "Seth Klarman", None),)
    def sap2_of(document, year=1991):
        c = sap_case([{"investor": "Klarman", "claim": "c"}], [{"entity": None, "document": document, "year": year}],
                     investor=klarman, sources=book)
        return sap_at_k(c, 2)
    assert sap2_of("Margin of Safety") == 1.0
    assert sap2_of("Margin of Safety: Risk-Averse Value Investing Strategies for the Thoughtful Investor") == 1.0
    assert sap2_of("Margins of Safety") == 1.0          # within 3 edits of the main title
    assert sap2_of("Margin of Error") == 0.0            # 6 edits from the main title
    assert sap2_of("Margin of Safety", year=1995) == 0.0  # the year still binds
    assert sap2_of("Risk-Averse Value Investing") == 0.0  # the subtitle alone is not the title


def test_sap_not_applicable_without_ground_truth():
    c = sap_case([{"investor": "Buffett", "claim": "c"}], [], investor=None)
    assert sap_at_k(c, 1) is None
    c = sap_case([{"investor": "Buffett", "claim": "c"}], [], sources=())
    assert (sap_at_k(c, 1), sap_at_k(c, 2), sap_at_k(c, 3)) == (1.0, None, None)
    with pytest.raises(ScoreError):
        sap_at_k(c, 4)


names = st.sampled_from(["Buffett", "Warren Buffett", "Graham", "Benjamin Graham", "Munger", "W. Buffett", ""])
titles = st.sampled_from(["The Intelligent Investor", "Intelligent Investr", "Owner's Manual",
                          "Berkshire Hathaway Owner's Manual", "Poor Charlie's Almanack"])


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.fixed_dictionaries({"investor": names, "claim": st.just("c")}), max_size=4),
    st.lists(st.fixed_dictionaries({"entity": st.one_of(st.none(), names), "document": titles,
                                    "year": st.one_of(st.none(), st.integers(1945, 2000))}), max_size=4),
    st.sampled_from(["", "Chapter 20", "ch. 8", "chapter 20 of the book"]),
)
def test_sap_cascade_holds_for_every_response(attributions, citations, text):
    c = sap_case(attributions, citations, text)
    s1, s2, s3 = (sap_at_k(c, k) for k in (1, 2, 3))
    assert s3 <= s2 <= s1


# --------------------------------------------------------------------------- CKCA


def institutional(institution, shorthand, kill, response, kill_labels, elements=None, text=""):
    gold = grp(shorthand, elements, kill)
    for g in gold["gold_program"]:
        if g["kill_triggered"]:
            g["kill_criterion"] = kill_labels[g["gate"]]
    p = parsed(response, text=text)
    return Case(gold=gold, parsed=p, kill_gates=kill_labels, institution=institution, encoder=ENC)


NBIM_KILLS = {2: "product_based_exclusion", 3: "conduct_based_exclusion", 5: "mandate_investment_restriction"}


@pytest.mark.parametrize(
    "gold, response, expected",
    [
        ("PRPPP", [[2, "REJECT", []], [3, "PROCEED", []]], 1.0),
        ("PRPPP", [[3, "REJECT", []]], 0.0),
        ("PRPPP", [[2, "REJECT", []], [3, "REJECT", []]], 0.0),
        ("PRRPP", [[2, "REJECT", []], [3, "REJECT", []]], 1.0),
        ("PRRPP", [[2, "REJECT", []]], 0.0),
        ("PPPPR", [[5, "REJECT", []]], 1.0),
        ("PPPPP", [[5, "REJECT", []]], None),
    ],
    ids=["k2_named", "k3_instead_of_k2", "extra_component", "k2_and_k3_both", "one_of_two_missed", "k5",
         "nothing_triggered_not_applicable"],
)
def test_ckca_nbim(gold, response, expected):
    kill = [n for n in (2, 3, 5) if gold[n - 1] == "R"]
    assert ckca(institutional("NBIM", gold, kill, response, NBIM_KILLS)) == expected


def test_ckca_cppib_needs_mechanism_and_verdict():
    labels = {2: "factor_substitutable"}
    hit = institutional("CPPIB", "PRNN", [2], [[2, "REJECT", ["return is factor-substitutable"]]], labels)
    assert ckca(hit) == 1.0
    no_mechanism = institutional("CPPIB", "PRNN", [2], [[2, "REJECT", ["quality check failed"]]], labels)
    assert ckca(no_mechanism) == 0.0
    wrong_verdict = institutional("CPPIB", "PRNN", [2], [[2, "PROCEED", ["factor substitutable"]]], labels)
    assert ckca(wrong_verdict) == 0.0
    negated_text = "Gate 2: the return is not factor substitutable."
    text_only = institutional("CPPIB", "PRNN", [2], [[2, "REJECT", []]], labels, text=negated_text)
    text_only.parsed["gates"][0]["span"] = [0, len(negated_text)]
    assert ckca(text_only) == 0.0


def test_ckca_pif_partial_credit():
    labels = {2: "irr_below_hurdle", 3: "not_aligned_with_vision_2030"}
    both = [[2, "REJECT", ["IRR below hurdle"]], [3, "REJECT", ["not aligned with Vision 2030"]]]
    assert ckca(institutional("PIF", "PRR", [2, 3], both, labels)) == 1.0
    assert ckca(institutional("PIF", "PRR", [2, 3], both[:1], labels)) == 0.5
    assert ckca(institutional("PIF", "PRP", [2], [[2, "REJECT", ["IRR below hurdle"]], [3, "PROCEED", []]], labels)) == 1.0
    assert ckca(institutional("PIF", "PRP", [2], [[2, "REJECT", ["IRR above hurdle"]], [3, "REJECT", []]], labels)) == 0.0


def test_ckca_not_applicable_for_individual_investors():
    assert ckca(case("R", [[1, "REJECT", []]], kill=[1])) is None


# --------------------------------------------------------------------------- ContradictionCoverage


def test_contradiction_coverage():
    text = ("In 2001 Buffett called airlines a death trap for investors. "
            "By 2016 Berkshire held large stakes in four airlines. Unrelated sentence about tea.")
    c = Case(gold=grp("P"), parsed=parsed([], text=text), encoder=ENC,
             contradictions=("Buffett called airlines a death trap for investors",
                             "Berkshire held large stakes in four airlines",
                             "Munger praised railroads in 1950"))
    assert contradiction_coverage(c, threshold=0.9) == pytest.approx(2 / 3)
    assert contradiction_coverage(Case(gold=grp("P"), parsed=parsed([]), encoder=ENC)) is None


# --------------------------------------------------------------------------- IVP / SDI


class Table:
    """A fake encoder with fixed vectors per text."""

    def __init__(self, table):
        self.table = table

    def encode(self, sentences):
        return [self.table[s] for s in sentences]


def test_sdi_and_pairwise():
    enc = Table({"a": [1.0, 0.0], "b": [0.0, 1.0], "c": [1.0, 1.0], "d": [-1.0, 0.0]})
    assert sdi("a", "b", encoder=enc) == pytest.approx(1.0)
    assert sdi("a", "c", encoder=enc) == pytest.approx(1 - math.sqrt(0.5))
    assert sdi("a", "d", encoder=enc) == 1.0  # negative cosine clipped: SDI stays in [0, 1]
    assert pairwise_sdi({"x": "a", "y": "b", "z": "a"}, encoder=enc) == pytest.approx(
        {("x", "y"): 1.0, ("x", "z"): 0.0, ("y", "z"): 1.0})


def test_ivp_hand_worked():
    # q1: Buffett a, Marks b, Dalio a ; q2: Buffett a, Marks c (Dalio absent)
    enc = Table({"a": [1.0, 0.0], "b": [0.0, 1.0], "c": [1.0, 1.0]})
    responses = {"Buffett": {"q1": "a", "q2": "a"}, "Marks": {"q1": "b", "q2": "c"}, "Dalio": {"q1": "a"}}
    d = 1 - math.sqrt(0.5)
    table = ivp_table(responses, encoder=enc)
    # Buffett: q1 mean(1-0, 1-1) = 0.5 ; q2 (only Marks) d ; IVP = (0.5 + d)/2
    assert table["Buffett"] == pytest.approx((0.5 + d) / 2)
    # Marks: q1 mean(1, 1) = 1 ; q2 d ; Dalio: q1 mean(0, 1) = 0.5
    assert table["Marks"] == pytest.approx((1 + d) / 2)
    assert table["Dalio"] == pytest.approx(0.5)
    assert ivp(responses, "Dalio", encoder=enc) == pytest.approx(0.5)
    assert ivp_table({"Solo": {"q": "a"}}, encoder=enc) == {"Solo": None}
    with pytest.raises(ScoreError):
        ivp(responses, "Soros", encoder=enc)


@settings(max_examples=50, deadline=None)
@given(st.dictionaries(st.sampled_from(["A", "B", "C"]),
                       st.dictionaries(st.sampled_from(["q1", "q2"]), st.text("abcde ", min_size=1, max_size=12),
                                       min_size=1), min_size=1))
def test_ivp_bounds(responses):
    for value in ivp_table(responses, encoder=ENC).values():
        assert value is None or 0.0 <= value <= 1.0


# --------------------------------------------------------------------------- registry and investor data


def test_registry_lookup_and_options():
    assert {"gcf", "ogrs", "ogrs_k", "kccs", "gra", "sap@1", "sap@2", "sap@3", "ckca", "ned", "nlcs",
            "verdict_acc", "verdict_acc_gates", "contradiction_coverage", "kendall_tau", "tau_n"} <= set(metrics.names())
    assert get_metric("ogrs").section == "§7.6"
    assert get_metric("kendall_tau").bounds == (-1.0, 1.0)
    with pytest.raises(ScoreError) as err:
        get_metric("kcss")
    assert err.value.suggestion == "kccs"
    with pytest.raises(ScoreError) as err:
        create_metric("kccs", treshold=0.5)
    assert err.value.suggestion == "threshold"


def test_registry_rejects_a_second_function_under_one_name():
    with pytest.raises(ScoreError, match="registered twice"):
        metrics.register("gcf", section="§0")(lambda case: 0.0)


def test_investor_profiles_from_registry_document():
    doc = {"investors": {"dalio": {"name": "Ray Dalio", "aliases": ["Dalio"], "school": "macro",
                                   "distinctive_phrases": ["economic machine", "debt cycle"],
                                   "active": {"start": 1975, "end": "2022-10"},
                                   "career_boundaries": [{"date": "2022-10", "event": "stepped_down",
                                                          "corpus_filter": "hard_exclude"},
                                                         {"date": 2011, "event": "x", "corpus_filter": "soft_filter"}]}}}
    profile = investor_profiles(doc)["Ray Dalio"]
    assert profile.active == (1975, 2022)
    assert [(b.year, b.mode) for b in profile.career_boundaries] == [(2022, "hard"), (2011, "soft")]
    assert profile.matches("Dalio") and not profile.matches("Soros")
    with pytest.raises(ScoreError):
        InvestorProfile.from_mapping({"school": "macro"})


def test_case_for_bundled_card_reads_kill_gates_and_investor():
    gold = grp("PPIPRN", kill=[5])
    gold["framework"] = "buffett_acquisition_checklist"
    c = Case.for_card(gold, parsed([]))
    assert c.card_gates == (1, 2, 3, 4, 5, 6)
    assert c.kill_gates is not None and c.kill_gates[5] == "price_exceeds_intrinsic_value"
    assert c.topology == "linear_sequential"
    assert c.investor is not None and c.investor.name == "Warren Buffett"
    assert c.institution is None
    assert Case.for_card(gold, parsed([]), "nbim_gpfg_exclusion_screen").institution == "NBIM"


def test_prefetch_embeds_every_text_once_and_metrics_then_hit_the_cache():
    from ipb.scoring.embeddings import CachedEncoder
    from ipb.scoring.metrics import prefetch_embeddings

    enc = CachedEncoder(HashingEncoder())
    cases = [case("RP", [[1, "REJECT", ["ability to raise prices"]], [2, None, ["moat"]]], kill=[1, 2],
                  elements={"1": ["pricing power"], "2": ["durable moat"]}, encoder=enc) for _ in range(3)]
    sent = prefetch_embeddings(cases)
    # two gold elements, two kill labels (FM-3 reads them), two detected; the three cases share them
    assert sent == enc.misses == 6
    for c in cases:
        get_metric("kccs")(c)
        get_metric("gra")(c)
    assert enc.misses == 6


def test_full_reconstruction_counts_unreached_gates():
    gates = [[1, "PROCEED", []], [2, "PROCEED", []], [3, "REJECT", []]]
    application = case("PPRNN", gates, kill=[3])
    reconstruction = case("PPRNN", gates, kill=[3], full_reconstruction=True)
    assert gcf(application) == 1.0
    assert gcf(reconstruction) == pytest.approx(3 / 5)
    assert get_metric("ned")(reconstruction) == pytest.approx(2 / 5)
