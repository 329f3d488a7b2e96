"""FMDP detectors FM-1 ... FM-6 (paper §7.11, §9): each rule fires on a minimal
positive case, stays quiet on a minimal negative one, and says why.

Embeddings come from fixed-vector fake encoders, so every similarity below is
known exactly.
"""

from __future__ import annotations

from typing import Any

import pytest

from ipb.errors import ScoreError
from ipb.scoring.embeddings import HashingEncoder
from ipb.scoring.fmdp import FM_NAMES, PAPER_PRECISION, detect_all, fm1, fm2, fm3, fm4, fm5, fm6
from ipb.scoring.metrics import CareerBoundary, Case, InvestorProfile
from ipb.scoring.registry import detectors, get_detector

LETTER = {"P": "PROCEED", "R": "REJECT", "I": "INCONCLUSIVE", "N": "N/A"}


def grp(shorthand: str, elements: dict[int, list[str]] | None = None, numbers: list[int] | None = None) -> dict:
    numbers = numbers or list(range(1, len(shorthand) + 1))
    return {
        "framework": "test",
        "gold_program": [
            {"gate": n, "name": f"Gate {n}", "verdict": LETTER[v], "kill_criterion": None,
             "required_elements": list((elements or {}).get(n, [])), "kill_triggered": False,
             "computed_value": None}
            for n, v in zip(numbers, shorthand)
        ],
        "investment_verdict": "DECLINE",
        "verdict_trigger": None,
    }


def parsed(gates: list[list[Any]] = (), text: str = "", **extra: Any) -> dict:
    out = {"status": "ok", "reason": None, "final_verdict": None, "invented_gates": [], "years": [],
           "attributions": [], "citations": [], "text": text,
           "gates": [{"gate": n, "name": "", "verdict": v, "elements": list(e), "span": [0, 0]} for n, v, e in gates]}
    out.update(extra)
    return out


class Table:
    """Fake encoder: fixed vectors; unknown texts map to a neutral vector."""

    def __init__(self, table: dict[str, list[float]]):
        self.table = table

    def encode(self, sentences):
        return [self.table.get(s, [0.0, 0.0, 1.0]) for s in sentences]


BUFFETT = InvestorProfile("Warren Buffett", school="deep_value",
                          distinctive_phrases=("circle of competence", "owner earnings"),
                          active=(1956, None), aliases=("Buffett",))
MARKS = InvestorProfile("Howard Marks", school="credit_cycle", distinctive_phrases=("pendulum", "second-level thinking"))
GRAHAM = InvestorProfile("Benjamin Graham", school="deep_value", distinctive_phrases=("net-net", "Mr. Market"),
                         active=(1926, 1976))
DALIO = InvestorProfile("Ray Dalio", school="macro", distinctive_phrases=("economic machine",),
                        active=(1975, 2022),
                        career_boundaries=(CareerBoundary(1975, "founded", "none"),
                                           CareerBoundary(2022, "stepped_down_as_co_cio", "hard")))
SOROS = InvestorProfile("George Soros", school="macro", active=(1969, 2011),
                        career_boundaries=(CareerBoundary(2011, "family_office", "soft"),))


def all_gates(n: int, elements: list[str] | None = None) -> list[list[Any]]:
    return [[g, "PROCEED", elements or []] for g in range(1, n + 1)]


# --------------------------------------------------------------------------- FM-1


FULL = grp("PPPP")
PARTIAL = grp("PP", numbers=[3, 6])  # a partial-gate item: the GRP annotates gates 3 and 6 of a 6-gate card


@pytest.mark.parametrize(
    "gold, response, extra, card_gates, fired, rule",
    [
        (FULL, all_gates(4), {"invented_gates": ["ESG Review"]}, (1, 2, 3, 4), True, "gate_not_in_framework"),
        (FULL, all_gates(4) + [[7, "PROCEED", []]], {}, (1, 2, 3, 4), True, "gate_not_in_framework"),
        (FULL, all_gates(4), {}, (1, 2, 3, 4), False, None),
        (PARTIAL, [[3, "PROCEED", []], [4, "PROCEED", []], [6, "PROCEED", []]], {}, (1, 2, 3, 4, 5, 6), False, None),
        (PARTIAL, [[3, "PROCEED", []], [4, "PROCEED", []], [6, "PROCEED", []]], {}, None, True,
         "gate_not_in_framework"),
    ],
    ids=["invented_name", "numbered_gate_beyond_card", "faithful", "real_unannotated_gate_on_partial_item",
         "without_card_gates_the_gold_set_is_the_test"],
)
def test_fm1(gold, response, extra, card_gates, fired, rule):
    flag = fm1(Case(gold=gold, parsed=parsed(response, **extra), card_gates=card_gates))
    assert (flag.fired, flag.rule) == (fired, rule)
    assert flag.evidence["n_framework"] == (len(card_gates) if card_gates else len(gold["gold_program"]))


def test_fm1_evidence_names_the_invented_gate():
    flag = fm1(Case(gold=grp("PPP"), parsed=parsed(all_gates(3), invented_gates=["Gate 3b: Liquidity"])))
    assert flag.evidence["invented"] == ["Gate 3b: Liquidity"]
    assert flag.evidence["n_asserted"] == 4
    assert flag.to_dict()["name"] == "Hallucinated Gate"


# --------------------------------------------------------------------------- FM-2


@pytest.mark.parametrize(
    "years, fired, why",
    [
        ([1990], True, "the 1986 -> 1990 owner-earnings error: gap 4, one committed year"),
        ([1990, 1990, 1990, 1986], False, "confidence 3/4 = 0.75 is not > 0.75"),
        ([1990, 1990, 1990, 1990, 1986], True, "confidence 4/5 = 0.8"),
        ([1988], False, "gap 2 is not > 2"),
        ([1986], False, "right year"),
        ([1990, 1986], False, "hedged: confidence 0.5"),
        ([1850], False, "outside ±50 years of the active period (1956-): filtered out"),
        ([], False, "no year stated"),
    ],
)
def test_fm2_year_gap(years, fired, why):
    c = Case(gold=grp("P"), parsed=parsed(years=years), investor=BUFFETT, truth_year=1986)
    flag = fm2(c)
    assert flag.fired == fired, why
    assert flag.applicable
    if fired:
        assert flag.rule == "year_gap" and flag.evidence["gap"] > 2


def test_fm2_contradiction_coverage_clause():
    enc = Table({"airline reversal": [1.0, 0.0, 0.0], "net-net abandonment": [0.0, 1.0, 0.0],
                 "He bought airlines later.": [1.0, 0.0, 0.0], "Nothing relevant here.": [0.0, 0.0, 1.0]})
    contradictions = ("airline reversal", "net-net abandonment")
    missing = Case(gold=grp("P"), parsed=parsed(text="Nothing relevant here."), layer="L6",
                   contradictions=contradictions, encoder=enc)
    flag = fm2(missing, threshold=0.9)
    assert (flag.fired, flag.rule, flag.evidence["contradiction_coverage"]) == (True, "contradiction_coverage", 0.0)
    half = Case(gold=grp("P"), parsed=parsed(text="He bought airlines later. Nothing relevant here."), layer="L6",
                contradictions=contradictions, encoder=enc)
    assert fm2(half, threshold=0.9).fired is False  # coverage 0.5 >= 0.40
    l4 = Case(gold=grp("P"), parsed=parsed(text="Nothing relevant here."), layer="L4",
              contradictions=contradictions, encoder=enc)
    assert fm2(l4).applicable is False


# --------------------------------------------------------------------------- FM-3

KILL = {1: "outside_circle_of_competence", 2: "no_moat", 3: "untrustworthy_management", 4: "price_exceeds_value"}
ELEMENTS = {1: ["comprehensible"], 2: ["switching costs"], 3: ["candid management"], 4: ["price $50B"]}


def fm3_case(shorthand: str, found: dict[int, list[str]]) -> Case:
    response = [[g, "PROCEED", found.get(g, ["unrelated remark"])] for g in range(1, len(shorthand) + 1)]
    return Case(gold=grp(shorthand, ELEMENTS), parsed=parsed(response), kill_gates=KILL, encoder=HashingEncoder())


def test_fm3_fires_when_gates_are_named_without_their_kill_criteria():
    flag = fm3(fm3_case("PPPR", {1: ["comprehensible business"]}))
    assert (flag.fired, flag.rule) == (True, "kill_criterion_rate")
    assert flag.evidence["detected"] == [1] and flag.evidence["missed"] == [2, 3, 4]
    assert flag.evidence["rate"] == 0.25


def test_fm3_quiet_at_half_coverage():
    flag = fm3(fm3_case("PPPR", {1: ["comprehensible"], 4: ["a $50 billion price"]}))
    assert flag.fired is False and flag.evidence["rate"] == 0.5


def test_fm3_excludes_inconclusive_gates_from_the_denominator():
    # kill gates 1-3 verdicts P, I, R; only gate 1's criterion found: 1/2 (INCONCLUSIVE out), not 1/3
    flag = fm3(fm3_case("PIR", {1: ["comprehensible"]}))
    assert flag.evidence["excluded"] == [2]
    assert flag.evidence["rate"] == 0.5 and flag.fired is False


def test_fm3_counts_the_kill_label_itself():
    flag = fm3(fm3_case("PPPR", {1: ["comprehensible"], 4: ["price exceeds value"]}))
    assert flag.evidence["detected"] == [1, 4]


def test_fm3_not_applicable_without_decided_kill_gates():
    c = Case(gold=grp("II"), parsed=parsed(all_gates(2)), kill_gates={1: "a", 2: "b"})
    assert fm3(c).applicable is False


# --------------------------------------------------------------------------- FM-4

VOICE = Table({
    "circle of competence; owner earnings": [1.0, 0.0, 0.0],
    "pendulum; second-level thinking": [0.0, 1.0, 0.0],
    "The pendulum swings; think at the second level.": [0.1, 1.0, 0.0],
    "Stay inside your circle of competence and count owner earnings.": [1.0, 0.1, 0.0],
})


@pytest.mark.parametrize(
    "fields, text, fired, rule",
    [
        ({"ivp": 0.42}, "", True, "ivp"),
        ({"ivp": 0.8, "pairwise_sdi": {"Howard Marks": 0.2, "Ray Dalio": 0.6}}, "", True, "pairwise_sdi"),
        ({}, "The pendulum swings; think at the second level.", True, "persona_inversion"),
        ({"ivp": 0.8, "pairwise_sdi": {"Howard Marks": 0.5}},
         "Stay inside your circle of competence and count owner earnings.", False, None),
    ],
    ids=["low_ivp", "low_pairwise_sdi", "persona_inversion_marks_for_buffett", "distinct_voice"],
)
def test_fm4(fields, text, fired, rule):
    c = Case(gold=grp("P"), parsed=parsed(text=text), investor=BUFFETT, peers=(MARKS,), encoder=VOICE, **fields)
    flag = fm4(c)
    assert (flag.fired, flag.rule) == (fired, rule)
    if rule == "persona_inversion":
        assert flag.evidence["closest_investor"] == "Howard Marks"


def test_fm4_not_applicable_without_voice_data():
    assert fm4(Case(gold=grp("P"), parsed=parsed(text="x"))).applicable is False


# --------------------------------------------------------------------------- FM-5

SEQ_TEXT = "First the moat, then the price. Next management, followed by the holding period."


@pytest.mark.parametrize(
    "shorthand, response, text, fired, rule",
    [
        ("PPPP", all_gates(2), SEQ_TEXT, True, "coverage"),
        ("PPPP", all_gates(4), "Moat ok. Price ok. Management ok. Holding ok.", True, "sequence"),
        ("PPPP", all_gates(3) + [[4, None, []]], SEQ_TEXT, False, None),
        ("P", all_gates(1), "Moat ok.", False, None),
    ],
    ids=["gcf_below_0_70", "no_sequential_connectors", "ordered_procedure", "one_gate_has_no_seq_score"],
)
def test_fm5_coverage_and_sequence(shorthand, response, text, fired, rule):
    flag = fm5(Case(gold=grp(shorthand), parsed=parsed(response, text=text)))
    assert (flag.fired, flag.rule) == (fired, rule)


def test_fm5_cross_school_conflation():
    text = "We value it by owner earnings inside the circle of competence."
    enc = Table({
        "net-net; Mr. Market": [0.0, 1.0, 0.0],
        "circle of competence; owner earnings": [1.0, 0.0, 0.0],
        text: [1.0, 0.2, 0.0],
    })
    c = Case(gold=grp("P"), parsed=parsed(all_gates(1), text=text), investor=GRAHAM, peers=(BUFFETT, MARKS),
             encoder=enc)
    flag = fm5(c)
    assert (flag.fired, flag.rule) == (True, "cross_school")
    assert set(flag.evidence["sim_surface_similar"]) == {"Warren Buffett"}  # Marks is another school
    own = Case(gold=grp("P"), parsed=parsed(all_gates(1), text=text), investor=BUFFETT, peers=(GRAHAM,), encoder=enc)
    assert fm5(own).fired is False


# --------------------------------------------------------------------------- FM-6


def cite(entity: str, year: int) -> dict:
    return {"entity": entity, "document": "a letter", "year": year}


@pytest.mark.parametrize(
    "investor, layer, citations, scenario_year, framework_year, fired, rule",
    [
        (BUFFETT, "L7", [cite("Buffett", 1996)], 1974, None, True, "vintage_gap"),
        (BUFFETT, "L7", [cite("Buffett", 1980)], 1974, None, False, None),
        (BUFFETT, "L7", [cite("Graham", 1996)], 1974, None, False, None),
        (BUFFETT, "L7", [], 1974, 1996, True, "vintage_gap"),
        (DALIO, "L8", [cite("Ray Dalio", 2023)], 2023, None, True, "career_boundary"),
        (SOROS, "L8", [cite("Soros", 2015)], 2015, None, False, None),
    ],
    ids=["1996_framework_on_1974_scenario", "gap_6_years", "other_investor_citation_ignored",
         "framework_year_from_caller", "dalio_after_leaving_bridgewater", "soft_boundary_never_fires"],
)
def test_fm6(investor, layer, citations, scenario_year, framework_year, fired, rule):
    c = Case(gold=grp("P"), parsed=parsed(citations=citations), investor=investor, layer=layer,
             scenario_year=scenario_year, framework_year=framework_year)
    flag = fm6(c)
    assert (flag.fired, flag.rule) == (fired, rule)


def test_fm6_only_for_l6_to_l8():
    c = Case(gold=grp("P"), parsed=parsed(citations=[cite("Buffett", 1996)]), investor=BUFFETT, layer="L4",
             scenario_year=1974)
    flag = fm6(c)
    assert (flag.fired, flag.applicable) == (False, False)


# --------------------------------------------------------------------------- registry and running all


def test_every_failure_mode_is_registered_with_its_paper_precision():
    assert detectors.names() == ["FM-1", "FM-2", "FM-3", "FM-4", "FM-5", "FM-6"]
    assert set(FM_NAMES) == set(PAPER_PRECISION) == set(detectors.names())
    assert get_detector("FM-3").section == "§7.11"


def test_detect_all_with_options_and_parse_failures():
    c = fm3_case("PPPR", {1: ["comprehensible"], 4: ["price $50B"]})
    assert detect_all(c)["FM-3"].fired is False
    assert detect_all(c, {"FM-3": {"min_rate": 0.6}})["FM-3"].fired is True
    with pytest.raises(ScoreError):
        detect_all(c, {"FM-3": {"min_rat": 0.6}})
    failed = Case(gold=grp("P"), parsed={"status": "parse_failure", "reason": "empty response"})
    with pytest.raises(ScoreError, match="empty response"):
        detect_all(failed)
