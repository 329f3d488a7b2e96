"""The metric calibration harness (issue 5 item 4): every corruption over every bundled scenario.

Each bundled scenario of every card is executed into an L7 item; every
registered corruption renders a synthetic answer from the item's gold
program; each answer is parsed and scored through ``score_responses`` with
the hashing encoder. Each corruption must move exactly the metrics it
should, relative to the faithful (``none``) answer to the same item, and
the faithful answer must score at the ceiling.
"""

from __future__ import annotations

import random
import re
from collections import Counter

import pytest

from ipb.engine.investors import load_investors
from ipb.engine.registry import compiled_card
from ipb.errors import ScoreError
from ipb.scoring.embeddings import CachedEncoder, HashingEncoder
from ipb.scoring.run import ScoreOptions, score_responses
from ipb.respond.synthetic import (
    NotApplicable,
    bundled_items,
    corruption,
    corruption_names,
    corruptions,
    get_corruption,
    parse_corruption_spec,
    plan_for_gold,
    render_plan,
    scenario_year_of,
    synthetic_responses,
)

EXPECTED = ["none", "drop_gate", "swap_gates", "flip_verdict", "flip_final", "omit_kill_element",
            "omit_kill_criteria", "invent_gate", "wrong_year", "borrow_phrases"]
EPS = 1e-9


@pytest.fixture(scope="module")
def items():
    out = bundled_items()
    for item in out:
        plan = plan_for_gold(item["id"], item["grp"], scenario_year=scenario_year_of(item))
        if plan.citation is not None:
            item["truth_year"] = plan.citation[1]  # FM-2's ground-truth year: the source the answer cites
    return out


@pytest.fixture(scope="module")
def run(items):
    """(item id, corruption) -> (response record, score record) for every corruption and item."""
    responses = synthetic_responses(items, seed=7)
    options = ScoreOptions(encoder=CachedEncoder(HashingEncoder()), n_resamples=200)
    scored = score_responses(items, responses, options)
    assert len(scored) == len(responses) == len(items) * len(EXPECTED)
    return {(r["item_id"], r["corruptions"][0]["name"]): (r, s) for r, s in zip(responses, scored)}


def _m(record, name):
    return record["metrics"][name]


def _flag(record, fm):
    return record["targets"][0]["flags"][fm]


def _pairs(run, items, name, applied_only=True):
    out = []
    for item in items:
        base = run[(item["id"], "none")][1]
        response, scored = run[(item["id"], name)]
        if applied_only and not response["corruptions"][0]["applied"]:
            continue
        out.append((item, base, scored, response["corruptions"][0]["details"]))
    assert out, f"{name} applied to no item"
    return out


def _same(base, scored, names):
    for name in names:
        a, b = _m(base, name), _m(scored, name)
        assert (a is None and b is None) or abs(a - b) < EPS, (name, a, b)


def _lower(base, scored, name):
    assert _m(scored, name) < _m(base, name) - EPS, (name, _m(base, name), _m(scored, name))


def _read_back(base, item):
    """Whether the parser read back exactly the gold required elements of every reached gate."""
    parsed = {g["gate"]: g for g in base["targets"][0]["parsed"]["gates"]}
    for g in item["grp"]["gold_program"]:
        if g["verdict"] == "N/A":
            continue
        if set(g["required_elements"]) != set(parsed.get(g["gate"], {}).get("elements", [])):
            return False
    return True


# --------------------------------------------------------------------------- the registry


def test_every_corruption_is_registered_in_order():
    assert corruption_names() == EXPECTED
    assert all(corruptions.get(n).summary for n in EXPECTED)


def test_unknown_corruption_suggests_a_name():
    with pytest.raises(ScoreError) as exc:
        parse_corruption_spec("drop_gates")
    assert exc.value.suggestion == "drop_gate"
    assert parse_corruption_spec("drop_gate+wrong_year") == ["drop_gate", "wrong_year"]


def test_an_unknown_corruption_error_lists_the_registered_ones():
    """Regression (undiscoverable names): the error names every registered corruption, from the registry."""
    for lookup in (parse_corruption_spec, get_corruption, lambda n: synthetic_responses([], corruptions=[n])):
        with pytest.raises(ScoreError) as exc:
            lookup("drop_gates")
        assert exc.value.suggestion == "drop_gate"
        assert exc.value.message == f"unknown corruption 'drop_gates'; the registered corruptions: {', '.join(EXPECTED)}"
    with pytest.raises(ScoreError, match="empty corruption spec '\\+'; the registered corruptions: none, drop_gate"):
        parse_corruption_spec("+")

    @corruption("listed_test", section="§7.13", bounds=None)
    def listed(plan, rng):
        """A corruption registered late is listed too."""
        return {}

    try:
        with pytest.raises(ScoreError) as exc:
            parse_corruption_spec("nope")
        assert exc.value.message.endswith("wrong_year, borrow_phrases, listed_test")
    finally:
        corruptions._entries.pop("listed_test")


def test_a_corruption_is_added_by_decorator(items):
    @corruption("shout_final_test", section="§7.13", bounds=None)
    def shout(plan, rng):
        """Lower-case the final verdict (regression: registering needs nothing but the decorator)."""
        if not plan.final_verdict:
            raise NotApplicable("no final verdict")
        plan.final_verdict = plan.final_verdict.lower()
        return {"to": plan.final_verdict}

    try:
        [record] = synthetic_responses(items[:1], corruptions=["shout_final_test"])
        assert record["corruptions"] == [{"name": "shout_final_test", "applied": True,
                                          "details": {"to": items[0]["investment_verdict"].lower()}}]
    finally:
        corruptions._entries.pop("shout_final_test")


def test_same_seed_same_responses_and_records_say_what_was_done(items):
    a = synthetic_responses(items[:20], corruptions=["drop_gate", "invent_gate+wrong_year"], seed=3)
    b = synthetic_responses(items[:20], corruptions=["drop_gate", "invent_gate+wrong_year"], seed=3)
    assert a == b
    assert {tuple(c["name"] for c in r["corruptions"]) for r in a} == {("drop_gate",), ("invent_gate", "wrong_year")}
    for r in a:
        assert set(r) == {"item_id", "model", "condition", "response", "corruptions"}
        assert (r["model"], r["condition"]) == ("synthetic", "A")
        for c in r["corruptions"]:
            assert c["applied"] or "why" in c["details"]


def test_a_corruption_that_cannot_apply_says_why(items):
    one_gate = next(i for i in items if sum(g["verdict"] != "N/A" for g in i["grp"]["gold_program"]) == 1)
    [record] = synthetic_responses([one_gate], corruptions=["swap_gates"])
    [c] = record["corruptions"]
    assert c["applied"] is False and "fewer than two" in c["details"]["why"]
    [faithful] = synthetic_responses([one_gate], corruptions=["none"])
    assert record["response"] == faithful["response"]


def test_an_item_without_gold_is_an_error():
    with pytest.raises(ScoreError, match="no gold program"):
        synthetic_responses([{"id": "x"}])


def test_l8_items_render_one_section_per_card(items):
    a = next(i for i in items if i["card"] == "buffett_acquisition_checklist")
    b = next(i for i in items if i["card"] == "graham_net_net_screen")
    l8 = {"id": "L8-x", "layer": "L8", "cards": [a["card"], b["card"]],
          "golds": [{"card": a["card"], "investor": "Warren Buffett", "grp": a["grp"]},
                    {"card": b["card"], "investor": "Benjamin Graham", "grp": b["grp"]}]}
    [record] = synthetic_responses([l8], corruptions=["flip_final"])
    assert record["response"].count("## ") == 2
    assert set(record["corruptions"][0]["details"]) == {a["card"], b["card"]}


def test_plan_renders_the_numbered_layout(items):
    item = next(i for i in items if i["id"].endswith("ipb_p_011_base"))
    text = render_plan(plan_for_gold(item["id"], item["grp"], scenario_year=2024))
    assert "Gate 5: Margin of Safety \u2014 REJECT. Considered: price $50B; intrinsic ~$25B; 2x premium." in text
    assert "Gate 6: Holding Period Economics \u2014 N/A, not reached." in text
    assert "Final verdict: DECLINE" in text


#: (card, scenario year, the citation a faithful answer gives): one case per rule of
#: ``_choose_citation``, so the source carrying the gold context (SAP@3) is the one cited.
CITATIONS = [
    pytest.param("lynch_six_category_framework", 1990, ("One Up on Wall Street", 1989, "ch. 7, ch. 13, ch. 15"),
                 id="locator-naming-a-gate-cited-by-its-chapters"),
    pytest.param("buffett_acquisition_checklist", 2024,
                 ("Berkshire Hathaway Chairman's Letter to Shareholders", 1977,
                  "four criteria: understandable, favorable long-term prospects, honest and competent people, "
                  "very attractive price"),
                 id="only-context-names-gates-so-cited-as-given"),
    pytest.param("marks_distressed_debt", 2008,
                 ("The Most Important Thing: Uncommon Sense for the Thoughtful Investor", 2011,
                  "ch. 7 (controlling risk), ch. 12 (finding bargains), ch. 17 (investing defensively)"),
                 id="later-source-with-locator-beats-dated-memo-without"),
    pytest.param("dalio_debt_supercycle_navigation", 2007,
                 ("Principles: Life and Work", 2017, "Part I, the depression gauge built in 2007-2008"),
                 id="source-over-10-years-younger-avoided"),
    pytest.param("dalio_debt_supercycle_navigation", 2012,
                 ("Principles for Navigating Big Debt Crises", 2018, "Part 1"),
                 id="locator-without-a-year-preferred"),
    pytest.param("soros_reflexive_hypothesis_trade_construction", 1992,
                 ("Soros on Soros: Staying Ahead of the Curve", 1995,
                  "forming a hypothesis, testing it with a position, enlarging on confirmation"),
                 id="gate-free-source-beats-one-whose-context-names-gates"),
]


@pytest.mark.parametrize("card, year, expected", CITATIONS)
def test_a_faithful_answer_cites_the_source_that_carries_the_context(items, card, year, expected):
    item = next(i for i in items if i["card"] == card)
    plan = plan_for_gold(item["id"], item["grp"], scenario_year=year)
    assert plan.citation == expected
    document, cited_year, locator = expected
    assert f'Source: "{document}" ({cited_year}), {locator}.' in render_plan(plan)


# --------------------------------------------------------------------------- the calibration run

STRUCTURE = ("gcf", "kendall_tau", "verdict_acc_gates", "verdict_acc")
ELEMENTS = ("gra", "kccs")


def test_faithful_answers_score_at_the_ceiling(run, items):
    fm4 = 0
    for item in items:
        base = run[(item["id"], "none")][1]
        assert base["status"] == "scored", item["id"]
        for name in ("gcf", "kendall_tau", "verdict_acc_gates", "verdict_acc", "nlcs", "sap@1"):
            assert _m(base, name) == 1.0, (item["id"], name, _m(base, name))
        assert _m(base, "ned") == 0.0
        for fm in ("FM-1", "FM-2", "FM-3", "FM-5"):
            assert not _flag(base, fm)["fired"], (item["id"], fm, _flag(base, fm))
        plan = plan_for_gold(item["id"], item["grp"], scenario_year=scenario_year_of(item))
        year = scenario_year_of(item)
        if _flag(base, "FM-6")["fired"]:  # only where the faithful answer had to cite a framework younger than the scenario
            vintage = _flag(base, "FM-6")["evidence"]["framework_year"]
            assert year is not None and vintage - year > 10 and plan.citation is not None and plan.citation[1] > year
        if plan.citation is not None and len(plan.citation[0]) <= 80:
            assert _m(base, "sap@2") == 1.0, item["id"]
            if plan.citation[2]:
                assert _m(base, "sap@3") == 1.0, item["id"]
        if _read_back(base, item):
            for name in ELEMENTS:
                assert _m(base, name) in (None, 1.0), (item["id"], name, _m(base, name))
        fm4 += _flag(base, "FM-4")["fired"]
    # FM-4's persona test is an argmax of cosines; with the lexical hashing encoder a
    # card's own gate text sometimes sits closer to another investor's phrases.
    assert fm4 <= 0.05 * len(items)


def test_parser_reads_back_every_rendered_element(run, items):
    missing = [i["id"] for i in items if not _read_back(run[(i["id"], "none")][1], i)]
    assert not missing, f"{len(missing)} of {len(items)} faithful answers lose an element: {missing[:5]}"




def _sap_defined(card_id):
    """The SAP levels with ground truth for a card (§7.8): investor, a gold source, a source context."""
    card = compiled_card(card_id).card
    return {1: bool(card.investor), 2: bool(card.sources), 3: any(s.locator for s in card.sources)}


def test_faithful_answers_attribute_the_source_at_every_sap_level(run, items):
    """Regression (faithful answers scored SAP@3 = 0): a faithful answer cites the source carrying
    the gold chapter/section with that locator, so SAP@1 = SAP@2 = SAP@3 = 1 wherever defined."""
    wrong = []
    for item in items:
        base = run[(item["id"], "none")][1]
        defined = _sap_defined(item["card"])
        for k in (1, 2, 3):
            value = _m(base, f"sap@{k}")
            if value != (1.0 if defined[k] else None):
                wrong.append((item["id"], k, value))
    assert not wrong, f"{len(wrong)} faithful SAP values off the ceiling: {wrong[:6]}"


def _anachronism_unavoidable(item):
    """Every source with a locator is over 10 years younger than the scenario (FM-6 fires on any of them)."""
    year = scenario_year_of(item)
    card = compiled_card(item["card"]).card
    return year is not None and all(s.year - year > 10 for s in card.sources if s.locator and isinstance(s.year, int))


def test_faithful_answers_fail_only_the_explained_basp_strict_gates(run, items):
    """Every BASP-strict gate a faithful answer fails (§7.15) has a known cause outside the answer:
    CKCA by FM-6 where every source carrying the gold context is over 10 years younger than the
    scenario, IVP by FM-4 (the hashing encoder's lexical persona test, bounded in
    test_faithful_answers_score_at_the_ceiling)."""
    unexplained, passed = [], 0
    for item in items:
        base = run[(item["id"], "none")][1]
        strict = base["targets"][0]["basp_strict"]
        for gate in strict["gates"]:
            if gate["passed"] is not False:
                continue
            explained = (
                (gate["metric"] == "ckca" and gate["reason"] == "FM-6" and _anachronism_unavoidable(item))
                or (gate["metric"] == "ivp" and gate["reason"] == "FM-4")
            )
            if not explained:
                unexplained.append((item["id"], gate["metric"], gate["reason"]))
        passed += bool(strict["conjunction"])
    assert not unexplained, unexplained
    assert passed >= 0.93 * len(items), f"BASP-strict conjunction on {passed} of {len(items)} faithful answers"


def test_drop_gate_drops_a_gate_the_answer_names_nowhere_else(run, items):
    """Regression (a gate named in the citation or in another gate's kill label was dropped, and
    the parser still read it as addressed): the dropped gate's name and aliases are gone."""
    for item, _, _, details in _pairs(run, items, "drop_gate"):
        response = run[(item["id"], "drop_gate")][0]["response"]
        gate = next(g for g in compiled_card(item["card"]).card.gates if g.number == details["gate"])
        text = " ".join(re.sub(r"[^a-z0-9]+", " ", response.lower()).split())
        for label in (gate.name, *gate.aliases, gate.id):
            key = " ".join(re.sub(r"[^a-z0-9]+", " ", label.lower()).split())
            assert not key or f" {key} " not in f" {text} ", (item["id"], details["gate"], label)


def test_drop_gate_lowers_coverage_and_keeps_the_remaining_verdicts(run, items):
    for item, base, scored, details in _pairs(run, items, "drop_gate"):
        for name in ("gcf", "ogrs", "verdict_acc_gates", "gra"):
            _lower(base, scored, name)
        _same(base, scored, ("kendall_tau", "verdict_acc", "sap@1", "sap@2"))
        assert not _flag(scored, "FM-1")["fired"]
        gold = {g["gate"]: g["verdict"] for g in item["grp"]["gold_program"]}
        stated = scored["targets"][0]["parsed"]["gates"]
        assert details["gate"] not in [g["gate"] for g in stated]
        assert all(g["verdict"] == gold[g["gate"]] for g in stated), item["id"]


def test_swap_gates_lowers_tau_but_not_coverage(run, items):
    for item, base, scored, _ in _pairs(run, items, "swap_gates"):
        _same(base, scored, ("gcf", "verdict_acc_gates", "verdict_acc", *ELEMENTS))
        if scored["targets"][0]["topology"] == "parallel_threshold":
            _same(base, scored, ("kendall_tau",))  # no prescribed order: tau is 1 by definition
        else:
            _lower(base, scored, "kendall_tau")
            _lower(base, scored, "ogrs")


def test_flip_verdict_lowers_gate_verdict_accuracy(run, items):
    for item, base, scored, details in _pairs(run, items, "flip_verdict"):
        _lower(base, scored, "verdict_acc_gates")
        _lower(base, scored, "gra")
        _same(base, scored, ("gcf", "kendall_tau", "verdict_acc", "kccs"))
        assert details["from"] != details["to"]


def test_flip_final_lowers_final_verdict_accuracy_only(run, items):
    for item, base, scored, _ in _pairs(run, items, "flip_final"):
        _lower(base, scored, "verdict_acc")
        _same(base, scored, ("gcf", "kendall_tau", "verdict_acc_gates", *ELEMENTS))


def test_omit_kill_element_lowers_kccs_where_the_element_was_read(run, items):
    fm3 = 0
    for item, base, scored, details in _pairs(run, items, "omit_kill_element"):
        _same(base, scored, STRUCTURE)
        after = {g["gate"]: g["elements"] for g in scored["targets"][0]["parsed"]["gates"]}
        if details["element"] in after.get(details["gate"], []):
            _same(base, scored, ELEMENTS)  # the parser still finds it (in the gate's own label): nothing was lost
        elif _read_back(base, item):  # elements read back exactly: losing one must show
            _lower(base, scored, "kccs")
            _lower(base, scored, "gra")
        # otherwise the read-back is inexact (test_parser_reads_back_every_rendered_element): nothing certain
        flag = _flag(scored, "FM-3")
        assert flag["fired"] == (flag["evidence"]["rate"] < 0.5)
        fm3 += flag["fired"]
    assert fm3 < 0.2 * len(items)  # one element of one gate rarely empties half the kill gates


def test_omit_kill_criteria_fires_fm3(run, items):
    unfired = []
    for item, base, scored, _ in _pairs(run, items, "omit_kill_criteria"):
        _same(base, scored, STRUCTURE)
        flag = _flag(scored, "FM-3")
        if _flag(base, "FM-3")["applicable"] and not flag["fired"]:
            # a gate still counts as detected only from an element the parser reads in its bare label line
            stated = {g["gate"]: g["elements"] for g in scored["targets"][0]["parsed"]["gates"]}
            assert all(stated.get(n) for n in flag["evidence"]["detected"]), item["id"]
            unfired.append(item["id"])
        if (_m(base, "kccs") or 0) > 0:
            _lower(base, scored, "kccs")
    assert len(unfired) <= 0.1 * len(items), unfired


def test_invent_gate_fires_fm1_and_nothing_else_moves(run, items):
    for item, base, scored, details in _pairs(run, items, "invent_gate"):
        flag = _flag(scored, "FM-1")
        assert flag["fired"], item["id"]
        assert flag["evidence"]["invented"] or details["gate"] in flag["evidence"]["unknown_numbers"]
        _same(base, scored, (*STRUCTURE, *ELEMENTS, "sap@1", "sap@2"))


def _hard_boundaries(investor_name):
    for investor in load_investors().values():
        if investor.name == investor_name:
            return [b.date.first_day().year for b in investor.career_boundaries if b.corpus_filter == "hard_exclude"]
    return []


def test_wrong_year_moves_sap_and_fires_fm2_and_fm6_where_applicable(run, items):
    fm6 = 0
    for item, base, scored, details in _pairs(run, items, "wrong_year"):
        assert details["to"] - details["from"] >= 4
        _same(base, scored, (*STRUCTURE, *ELEMENTS, "sap@1"))
        for name in ("sap@2", "sap@3"):
            if _m(base, name) == 1.0:
                _lower(base, scored, name)
        if scored["targets"][0]["parsed"]["years"] == [details["to"]]:  # the answer commits to the wrong year only
            assert _flag(scored, "FM-2")["fired"], item["id"]
            assert _flag(scored, "FM-2")["rule"] == "year_gap"
        year = scenario_year_of(item)
        investor = scored["targets"][0]["investor"]
        cited = [c["year"] for c in scored["targets"][0]["parsed"]["citations"]]
        if details["to"] not in cited or _flag(base, "FM-6")["fired"]:
            continue  # the parser did not read the citation (a long title), or FM-6 already fired
        # FM-6's vintage clause reads the card's vintage start, not the cited years (issue 14): a later
        # citation fires FM-6 only through a hard career boundary
        expected = any(details["to"] > b for b in _hard_boundaries(investor))
        assert _flag(scored, "FM-6")["fired"] == expected, (item["id"], details, year)
        fm6 += 1
    assert fm6 >= 1, "no item's wrong citation year was checked against FM-6"


def test_borrow_phrases_moves_the_persona_toward_the_other_investor(run, items):
    pairs = _pairs(run, items, "borrow_phrases")
    fired = 0
    for item, base, scored, details in pairs:
        _same(base, scored, (*STRUCTURE, *ELEMENTS, "sap@1", "sap@2"))
        own = scored["targets"][0]["investor"]
        before = _flag(base, "FM-4")["evidence"]["persona_similarity"]
        after = _flag(scored, "FM-4")["evidence"]["persona_similarity"]
        assert after[own] - after[details["investor"]] < before[own] - before[details["investor"]], item["id"]
        fired += _flag(scored, "FM-4")["fired"]
    assert fired >= 0.85 * len(pairs), f"FM-4 fired on {fired} of {len(pairs)}"


def test_every_corruption_applies_somewhere(run, items):
    applied = Counter(name for (_, name), (r, _) in run.items() if r["corruptions"][0]["applied"])
    assert set(applied) == set(EXPECTED)
    assert applied["none"] == len(items)


def test_rng_is_per_item_and_spec(items):
    a = synthetic_responses(items[:5], corruptions=["swap_gates"], seed=1)
    b = synthetic_responses(list(reversed(items[:5])), corruptions=["swap_gates"], seed=1)
    assert {r["item_id"]: r["response"] for r in a} == {r["item_id"]: r["response"] for r in b}
    assert random.Random("1:x:swap_gates").random() == random.Random("1:x:swap_gates").random()
