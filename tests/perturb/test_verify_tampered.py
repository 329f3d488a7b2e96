"""Regression (verify let tampered items through): an item must agree with itself, not only with its card.

Found by the s29break18 review (issue 18): ``ipb verify`` compared each item's
gold with the card's execution of its scenario and condition B with its
question, but never the id with the scenario nor the question with the
scenario. An item whose ``id`` was edited, or whose scenario fact was edited to
a value that keeps the gold (the question still stating the old value, which
is what a model reads), or whose fact lies outside the card's declared range,
passed with 0 mismatches. Each tamper below keeps every hash that verify
already checked (condition B, condition C) in agreement, so only the new
checks can catch it.
"""

from __future__ import annotations

import json
from decimal import Decimal
from typing import Any, Callable

import pytest

from ipb.perturb import Job, generate, parse_recipes, verify_items, write_lines
from ipb.perturb.frame import base_from_facts, build_frame, load_base
from ipb.perturb.items import build_item, conditions
from ipb.perturb.operators import Step
from perturb_support import CARDS, FIXTURES

CARD = str(CARDS / "new_author_screen.yaml")
CURRENT = {"new_author_screen": CARD}
BASE = FIXTURES / "new_author_base.yaml"


@pytest.fixture(scope="module")
def rows() -> list[dict[str, Any]]:
    return [json.loads(x) for x in generate(Job((CARD,), str(BASE), 3, parse_recipes("metric,flip")), 30).lines]


def _agreeing(item: dict[str, Any]) -> dict[str, Any]:
    """``item`` with its condition B recomputed from its (possibly edited) question: verify's old check agrees."""
    item["conditions"] = conditions(item["question"], item["conditions"]["B"]["investors"], item["manifest"]["cards"])
    return item


def _liquid(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """An item whose liquidity can move by 0.1 without changing its gold (no gate shows the value)."""
    for row in rows:
        if Decimal("1.6") <= Decimal(row["scenario"]["facts"]["liquidity"]) <= Decimal("4.8"):
            return json.loads(json.dumps(row))
    raise AssertionError("no item with liquidity in [1.6, 4.8]")


def _new_id(item: dict[str, Any], ident: str) -> dict[str, Any]:
    item["id"] = item["scenario"]["id"] = item["grp"]["question_id"] = ident
    return item


def edit_fact(item: dict[str, Any]) -> dict[str, Any]:
    facts = item["scenario"]["facts"]
    facts["liquidity"] = str(Decimal(facts["liquidity"]) + Decimal("0.1"))
    return item


def edit_question(item: dict[str, Any]) -> dict[str, Any]:
    old = item["scenario"]["facts"]["liquidity"]
    new = str(Decimal(old) + Decimal("0.1"))
    item["question"] = item["question"].replace(f"liabilities is {old} times", f"liabilities is {new} times")
    return _agreeing(item)


def drop_sentence(item: dict[str, Any]) -> dict[str, Any]:
    item["question"] = item["question"].replace("The gross margin is ", "The margin is ", 1)
    return _agreeing(item)


def add_date(item: dict[str, Any]) -> dict[str, Any]:
    item["scenario"]["as_of"] = "2099-01-01"
    return item


TAMPERS: dict[str, tuple[Callable[[dict[str, Any]], dict[str, Any]], str]] = {
    "item id edited": (lambda i: dict(i, id=i["id"][:-4] + "0000"), "id"),
    "all three ids edited alike": (lambda i: _new_id(i, i["id"][:-4] + "0000"), "id"),
    "item id not hex": (lambda i: _new_id(i, "X"), "id"),
    "fact edited, gold unchanged": (edit_fact, "question"),
    "question edited, condition B recomputed": (edit_question, "question"),
    "question reworded, condition B recomputed": (drop_sentence, "question"),
    "scenario given a decision date": (add_date, "id"),
    "scenario names another card": (lambda i: _set(i, ("scenario", "card"), "buffett_acquisition_checklist"),
                                    "scenario/card"),
    "a change's new value edited": (lambda i: _set(i, ("manifest", "changes", 0, "new"), "4.9"),
                                    "manifest/changes"),
    # s32break: the manifest's own records were never checked against the scenario or each other
    "manifest date edited": (lambda i: _set(i, ("manifest", "context", "as_of"), "1990-01-01"),
                             "manifest/context/as_of"),
    "manifest recipe renamed": (lambda i: _set(i, ("manifest", "recipe"), "sector"), "manifest/recipe"),
    "manifest operator renamed": (lambda i: _set(i, ("manifest", "operators", 0, "name"), "temporal"),
                                  "manifest/recipe"),
    "manifest card vintage moved": (lambda i: _set(i, ("manifest", "cards", 0, "vintage", "start"), 2090),
                                    "vintage"),
}


def _set(item: dict[str, Any], path: tuple[Any, ...], value: Any) -> dict[str, Any]:
    *head, last = path
    node: Any = item
    for key in head:
        node = node[key]
    node[last] = value
    return item


@pytest.mark.parametrize("name", list(TAMPERS))
def test_verify_catches_an_item_that_disagrees_with_itself(rows, tmp_path, name):
    tamper, word = TAMPERS[name]
    item = tamper(_liquid(rows))
    path = tmp_path / "items.jsonl"
    write_lines(path, [json.dumps(rows[0]), json.dumps(item)])
    check = verify_items(path, cards=CURRENT)
    assert [c.record for c in check.mismatched] == [2], name
    assert any(word in p for p in check.mismatched[0].problems), check.mismatched[0].problems


def test_verify_passes_the_untampered_items(rows, tmp_path):
    path = tmp_path / "items.jsonl"
    write_lines(path, [json.dumps(r) for r in rows])
    check = verify_items(path, cards=CURRENT)
    assert check.ok and not check.mismatched and len(rows) == 30


def test_verify_reports_a_fact_outside_the_declared_range(tmp_path):
    """A self-consistent item (id, question and gold made by the library) with liquidity 50 on a [0, 5] range:
    ``ipb perturb`` refuses such a base and never draws such a value, so verify must not pass it."""
    frame = build_frame([CARD])
    base = load_base(BASE, frame)
    facts = dict(base.facts, liquidity=Decimal(50))
    scenario = base_from_facts(frame, facts)
    step = Step("metric", scenario, {"inputs": ["liquidity"]})
    item = build_item(frame, base, scenario, [step], recipe="metric", args=[None], seed=0, attempt=0)
    path = tmp_path / "items.jsonl"
    write_lines(path, [json.dumps(item)])
    check = verify_items(path, cards=CURRENT)
    assert not check.ok
    problems = [p for c in check.mismatched + check.errors for p in c.problems]
    assert any("liquidity" in p and "outside the range [0, 5]" in p for p in problems), problems


def test_verify_reports_a_repeated_literal_outside_the_range_every_time(tmp_path, rows):
    """The range is checked when verify first converts a literal (s29qspeed); a literal met again is a memo hit and
    must be reported again, while an in-range item between them is not."""
    frame = build_frame([CARD])
    base = load_base(BASE, frame)
    bad = []
    for debts in (Decimal("2e8"), Decimal("3e8")):  # two distinct items (ids), one literal of liquidity
        scenario = base_from_facts(frame, dict(base.facts, liquidity=Decimal(50), debts=debts))
        step = Step("metric", scenario, {"inputs": ["liquidity"]})
        bad.append(build_item(frame, base, scenario, [step], recipe="metric", args=[None], seed=0, attempt=0))
    path = tmp_path / "items.jsonl"
    write_lines(path, [json.dumps(bad[0]), json.dumps(rows[0]), json.dumps(bad[1])])
    check = verify_items(path, cards=CURRENT)
    flagged = sorted(c.line for c in check.mismatched + check.errors
                     if any("liquidity" in p and "outside the range [0, 5]" in p for p in c.problems))
    assert flagged == [1, 3], [(c.line, c.problems) for c in check.checks]


# --------------------------------------------------------------------------- the manifest's dates

BUFFETT = "buffett_acquisition_checklist"
DALIO = str(CARDS / "cbdc_dalio_machine.yaml")
SOROS = str(CARDS / "cbdc_soros_reflexivity.yaml")


def _verify_one(tmp_path, item: dict[str, Any], cards: dict[str, str] | None = None):
    path = tmp_path / "items.jsonl"
    write_lines(path, [json.dumps(item)])
    return verify_items(path, cards=cards)


def test_verify_catches_an_fm6_probe_whose_flag_was_cleared(tmp_path):
    """An item dated outside the card's vintage is an FM-6 probe (paper §9); clearing ``fm6_probe`` and
    ``anachronisms`` made it pass as an ordinary item."""
    base = tmp_path / "railroad.yaml"
    base.write_text((FIXTURES.parents[2] / "frameworks" / "scenarios" / BUFFETT / "ipb_p_011_base.yaml").read_text()
                    .replace("business_model: subscription_software", "business_model: railroad")
                    .replace("sector: enterprise_software", "sector: transport"))
    item = json.loads(generate(Job((BUFFETT,), str(base), 0, parse_recipes("temporal"), True), 1).lines[0])
    assert item["manifest"]["fm6_probe"] and item["manifest"]["anachronisms"]
    assert _verify_one(tmp_path, item).ok
    item["manifest"]["fm6_probe"], item["manifest"]["anachronisms"] = False, []
    check = _verify_one(tmp_path, item)
    assert [c.record for c in check.mismatched] == [1]
    assert any("anachronisms" in p and "1977" in p for p in check.mismatched[0].problems), check.mismatched[0].problems


def test_verify_catches_a_macro_figure_published_after_the_scenario_date(tmp_path):
    """Decision-time cutoff (Investor's Last Exam, Appendix B.2): a figure published on or after the scenario
    date is a look-ahead ``ipb perturb`` never writes."""
    cards = (BUFFETT, DALIO)
    item = json.loads(generate(Job(cards, str(FIXTURES / "cbdc_l8.yaml"), 2, parse_recipes("temporal")), 1).lines[0])
    assert item["manifest"]["fact_dates"], "a temporal item carries the publication dates of its macro figures"
    current = {"cbdc_dalio_machine": DALIO}
    assert _verify_one(tmp_path, item, current).ok
    item["manifest"]["fact_dates"] = {k: "2100-01-01" for k in item["manifest"]["fact_dates"]}
    check = _verify_one(tmp_path, item, current)
    assert [c.record for c in check.mismatched] == [1]
    assert any("published 2100-01-01, not before the scenario date" in p for p in check.mismatched[0].problems), \
        check.mismatched[0].problems


# --------------------------------------------------------------------------- L8: the deck

@pytest.fixture(scope="module")
def l8_item() -> dict[str, Any]:
    cards = (BUFFETT, DALIO, SOROS)
    return json.loads(generate(Job(cards, str(FIXTURES / "cbdc_l8_with_soros.yaml"), 2, parse_recipes("metric"), True),
                               1).lines[0])


L8_TAMPERS: dict[str, Callable[[dict[str, Any]], dict[str, Any]]] = {
    "cards list cut short": lambda i: dict(i, cards=i["cards"][:2]),
    "cards list reordered": lambda i: dict(i, cards=list(reversed(i["cards"]))),
    "golds reordered": lambda i: dict(i, golds=list(reversed(i["golds"]))),
    "a gold repeated": lambda i: dict(i, golds=i["golds"] + i["golds"][:1]),
}


@pytest.mark.parametrize("name", list(L8_TAMPERS))
def test_verify_catches_an_l8_item_whose_cards_disagree_with_its_golds(l8_item, tmp_path, name):
    """Found by the s29break18 review: ``cards`` cut to its first card passed verify (the golds alone were
    executed); reordered or repeated golds were reported only as an edited id."""
    current = {"cbdc_dalio_machine": DALIO, "cbdc_soros_reflexivity": SOROS}
    assert _verify_one(tmp_path, l8_item, current).ok
    check = _verify_one(tmp_path, L8_TAMPERS[name](json.loads(json.dumps(l8_item))), current)
    assert not check.ok
    problems = [p for c in check.mismatched + check.errors for p in c.problems]
    assert any(p.startswith("cards: ") for p in problems), problems


def test_a_schema_error_does_not_print_the_whole_item(rows, tmp_path):
    """Found by the s29break18 review: an L7 item relabelled ``layer: L8`` gave a schema problem that quoted
    the whole item (4 KB on one line); each problem now keeps its start and its end."""
    item = json.loads(json.dumps(rows[0]))
    item["layer"] = "L8"
    check = _verify_one(tmp_path, item, CURRENT)
    problems = check.errors[0].problems
    assert problems and all(len(p) <= 400 for p in problems), [len(p) for p in problems]
    assert any("'golds' is a required property" in p for p in problems)


# --- the summary line (bug kind: mislabelled count) ------------------------------------------------------------------

def test_verify_summary_counts_an_item_that_disagrees_with_itself_in_its_own_words(rows, tmp_path):
    """An item whose gold is right but whose question (or id) no longer fits its scenario was counted as a
    "gold mismatch" in ``ipb verify``'s summary line; the gold matches, the item disagrees with itself."""
    from typer.testing import CliRunner

    from ipb.cli import app

    path = tmp_path / "items.jsonl"
    write_lines(path, [json.dumps(rows[0]), json.dumps(edit_fact(_liquid(rows))),
                       json.dumps(dict(rows[2], id=rows[2]["id"][:-4] + "0000"))])
    result = CliRunner().invoke(app, ["verify", str(path), "--card", f"new_author_screen={CARD}"])
    assert result.exit_code == 1
    summary = result.output.strip().splitlines()[-1]
    assert summary.startswith("verified 1 of 3 item(s): 0 gold mismatch(es), 2 disagreeing with themselves "
                              "(id, question, ranges or dates), 0 breaking a card constraint"), summary
    report = json.loads(CliRunner().invoke(app, ["verify", str(path), "--card", f"new_author_screen={CARD}",
                                                 "--format", "json"]).output)
    assert (report["mismatched"], report["inconsistent"]) == (0, 2)
    # a gold that differs is still a gold mismatch, whatever else the item gets wrong
    gold = json.loads(json.dumps(rows[1]))
    gold["investment_verdict"] = "INVEST" if gold["investment_verdict"] != "INVEST" else "DECLINE"
    write_lines(path, [json.dumps(gold)])
    line = CliRunner().invoke(app, ["verify", str(path), "--card", f"new_author_screen={CARD}"]).output
    assert "1 gold mismatch(es), 0 disagreeing with themselves" in line.strip().splitlines()[-1], line



@pytest.mark.parametrize("made, names", [
    ("0.0.1", ["ipb 0.0.1, whose question wording may differ from this ipb's"]),  # an older ipb made it: both versions
    ("same", ["the same version as this one"]),  # this version made it: an edit, or wording changed without a release
])
def test_a_question_that_differs_names_both_causes(rows, tmp_path, made, names):
    """Regression (the message blamed a hand edit): items made before ipb's question wording changed got "does not
    state the scenario (... differs from what ipb perturb writes ...)". The line names both causes, an edit or an
    ipb with other wording, and the version the manifest records beside this one."""
    from ipb.perturb.items import tool_version

    item = drop_sentence(_liquid(rows))
    item["manifest"]["tool"]["version"] = tool_version() if made == "same" else made
    path = tmp_path / "items.jsonl"
    write_lines(path, [json.dumps(item)])
    problems = verify_items(path, cards=CURRENT).mismatched[0].problems
    line = next(p for p in problems if p.startswith("question:"))
    assert "either the question was edited" in line and "or it was written by" in line, line
    assert f"this ipb ({tool_version()})" in line and all(n in line for n in names), line
    assert "at character" in line and "item says 'margin is " in line, line  # still where the texts part


def test_a_question_that_differs_without_a_recorded_version_names_both_causes():
    from ipb.perturb.verify_self import question_problem

    line = question_problem("The margin is 5%.", "The gross margin is 5%.", {"tool": {"name": "ipb"}})
    assert "either the question was edited" in line and "does not record which ipb made it" in line, line
    assert "at character 5: item says 'margin is 5%.'" in line, line


def test_an_item_relabelled_version_1_is_still_checked_against_itself(rows, tmp_path):
    """Regression (s32break): a version 1 item skips the checks of the item against itself (its question has the old
    wording), so setting "version": 1 on a current item let an edited question through. A version 1 item has no
    conditions block; one that carries it was relabelled."""
    item = edit_question(_liquid(rows))
    item["version"] = 1
    path = tmp_path / "items.jsonl"
    write_lines(path, [json.dumps(item)])
    check = verify_items(path, cards=CURRENT)
    assert [c.record for c in check.mismatched] == [1] and check.migrated == 0
    problems = check.mismatched[0].problems
    assert "version: 1" in problems[0] and any(p.startswith("question") for p in problems), problems
