"""Regression (verify let an edited ``manifest.changes`` through): the changes must lead back to the base.

Found in stop 31 (issue 18): an item records its base scenario only as a
digest (``manifest.base.digest``), and ``ipb verify`` checked of
``manifest.changes`` only that each entry's ``new`` is the scenario's value.
Emptying the list, removing or adding an entry, or editing an entry's ``old``
or its input (to another fact with the same value) passed with 0 problems.
Verify now undoes the recorded changes on the item's facts and hashes the
result as ``ipb perturb`` hashed the base; each tamper below keeps the id, the
question and conditions B and C in agreement, so only that check can catch it.
Tested on an L7 item, an L8 item with a deck rule's tied move and an L7 item
whose changes include a derived input (``derive:``).
"""

from __future__ import annotations

import json
from typing import Any, Callable

import pytest
from typer.testing import CliRunner

from ipb.cli import app
from ipb.perturb import Job, generate, parse_recipes, verify_items, write_lines
from ipb.perturb.verify_self import base_digest
from perturb_support import CARDS, FIXTURES, ROOT, SCENARIOS

NEW_USER18 = ROOT / "tests" / "fixtures" / "new_user18"
PABRAI = str(NEW_USER18 / "pabrai_dhandho_checklist.yaml")
GREENBLATT = "greenblatt_magic_formula_screen"
NEW_AUTHOR = str(CARDS / "new_author_screen.yaml")


def _items(cards: tuple[str, ...], base: Any, ops: str, n: int) -> list[dict[str, Any]]:
    return [json.loads(x) for x in generate(Job(cards, str(base), 7, parse_recipes(ops)), n).lines]


def _l7() -> tuple[dict[str, Any], dict[str, str]]:
    rows = _items((NEW_AUTHOR,), FIXTURES / "new_author_base.yaml", "metric", 10)
    return next(r for r in rows if len(r["manifest"]["changes"]) >= 1), {"new_author_screen": NEW_AUTHOR}


def _l8_tied() -> tuple[dict[str, Any], dict[str, str]]:
    """An L8 deck item where a deck rule (market_value == market_cap) moved a second fact with the first."""
    rows = _items((PABRAI, GREENBLATT, "munger_business_quality_price"), NEW_USER18 / "l8_deck_base.yaml", "metric",
                  60)
    tied = [r for r in rows if any("tied" in (op["details"] or {}) for op in r["manifest"]["operators"])]
    assert tied, "the deck base gives tied moves"
    return tied[0], {"pabrai_dhandho_checklist": PABRAI}


def _derived() -> tuple[dict[str, Any], dict[str, str]]:
    """An L7 item whose changes hold the derived combined_rank_position beside the drawn input it follows."""
    rows = _items((GREENBLATT,), SCENARIOS / GREENBLATT / "invest_midcap_industrial.yaml", "metric", 20)
    return next(r for r in rows if "combined_rank_position" in [c["input"] for c in r["manifest"]["changes"]]
                and len(r["manifest"]["changes"]) >= 2), {}


ITEMS: dict[str, Callable[[], tuple[dict[str, Any], dict[str, str]]]] = {
    "L7": _l7, "L8 deck with a tied move": _l8_tied, "L7 with a derived input": _derived}


@pytest.fixture(scope="module", params=list(ITEMS))
def made(request: Any) -> tuple[str, dict[str, Any], dict[str, str]]:
    item, cards = ITEMS[request.param]()
    return request.param, item, cards


def _unchanged(item: dict[str, Any]) -> str:
    """A fact of the item that no change records (an added change names it)."""
    changed = {c["input"] for c in item["manifest"]["changes"]}
    return next(k for k, v in item["scenario"]["facts"].items() if k not in changed and isinstance(v, str))


def emptied(item: dict[str, Any]) -> None:
    item["manifest"]["changes"] = []


def removed_last(item: dict[str, Any]) -> None:
    item["manifest"]["changes"].pop()


def added(item: dict[str, Any]) -> None:
    name = _unchanged(item)
    item["manifest"]["changes"].append({"input": name, "old": "1", "new": item["scenario"]["facts"][name]})


def old_edited(item: dict[str, Any]) -> None:
    change = item["manifest"]["changes"][0]
    change["old"] = change["new"][:-1] + ("7" if change["new"][-1:] != "7" else "8") if isinstance(
        change["new"], str) else "1"


def input_renamed(item: dict[str, Any]) -> None:
    """The first change moved to another input, its ``new`` set to that input's value (still the scenario's)."""
    name = _unchanged(item)
    change = item["manifest"]["changes"][0]
    change.update(input=name, new=item["scenario"]["facts"][name])


TAMPERS: dict[str, tuple[Callable[[dict[str, Any]], None], str]] = {
    "changes emptied": (emptied, "undoing the 0 recorded change(s) (none) on the item's facts does not give the base"),
    "a change removed": (removed_last, "does not give the base scenario whose digest manifest/base/digest records"),
    "a change added": (added, "does not give the base scenario whose digest manifest/base/digest records"),
    "a change's old value edited": (old_edited, "does not give the base scenario whose digest"),
    "a change's input renamed": (input_renamed, "does not give the base scenario whose digest"),
}


def _verify(tmp_path: Any, rows: list[dict[str, Any]], cards: dict[str, str]):
    path = tmp_path / "items.jsonl"
    write_lines(path, [json.dumps(r) for r in rows])
    return verify_items(path, cards=cards or None)


def test_the_changes_of_untampered_items_lead_back_to_their_base(made, tmp_path):
    _, item, cards = made
    ids = [c["id"] for c in item["manifest"]["cards"]]
    assert base_digest(item, ids) == item["manifest"]["base"]["digest"]
    assert _verify(tmp_path, [item], cards).ok


@pytest.mark.parametrize("tamper", list(TAMPERS))
def test_verify_catches_an_edited_changes_list(made, tmp_path, tamper):
    kind, item, cards = made
    edit, words = TAMPERS[tamper]
    bad = json.loads(json.dumps(item))
    edit(bad)
    check = _verify(tmp_path, [item, bad], cards)
    assert [c.record for c in check.mismatched] == [2], (kind, tamper, [c.problems for c in check.checks])
    found = check.mismatched[0]
    assert found.inconsistencies and not found.gold_differs  # the gold is right: the item disagrees with itself
    assert any(p.startswith("manifest/changes: ") and words in p for p in found.problems), (kind, found.problems)


def test_a_removed_change_names_the_input_an_operator_moved(tmp_path):
    """The operators' details say which inputs they moved; a removed change of one of them is named."""
    item, cards = _derived()
    drawn = item["manifest"]["operators"][0]["details"]["inputs"][0]
    item["manifest"]["changes"] = [c for c in item["manifest"]["changes"] if c["input"] != drawn]
    problems = _verify(tmp_path, [item], cards).mismatched[0].problems
    assert any(f"the operators moved {drawn}, which no change records" in p for p in problems), problems


def test_a_change_to_the_same_value_or_recorded_twice_is_named(tmp_path):
    item, cards = _l7()
    first = item["manifest"]["changes"][0]
    same = json.loads(json.dumps(item))
    same["manifest"]["changes"].append({"input": _unchanged(item), "old": "x", "new": "x"})
    name = same["manifest"]["changes"][-1]["input"]
    same["manifest"]["changes"][-1].update(old=item["scenario"]["facts"][name], new=item["scenario"]["facts"][name])
    twice = json.loads(json.dumps(item))
    twice["manifest"]["changes"].append(dict(first))
    check = _verify(tmp_path, [same, twice], cards)
    assert [c.record for c in check.mismatched] == [1, 2]
    assert any(f"manifest/changes: {name} is recorded as changed from" in p and "to the same value" in p
               for p in check.mismatched[0].problems), check.mismatched[0].problems
    assert any(f"manifest/changes: {first['input']} is recorded as changed more than once" in p
               for p in check.mismatched[1].problems), check.mismatched[1].problems


def test_ipb_verify_prints_the_located_line(tmp_path):
    item, _ = _l7()
    bad = json.loads(json.dumps(item))
    emptied(bad)
    path = tmp_path / "items.jsonl"
    write_lines(path, [json.dumps(item), json.dumps(bad)])
    result = CliRunner().invoke(app, ["verify", str(path), "--card", f"new_author_screen={NEW_AUTHOR}"])
    assert result.exit_code == 1
    assert (f"{path}:2: record 2 ({bad['id']}): mismatch: manifest/changes: undoing the 0 recorded change(s) (none) "
            "on the item's facts does not give the base scenario") in result.output, result.output
