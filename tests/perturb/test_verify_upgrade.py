"""Re-verifying items after an upgrade of ipb: the message says which part changed (issue 18, stop 31).

A user who upgrades ipb and runs ``ipb verify`` on old items gets a problem for every part the new ipb
writes differently. The question's line already named both causes (an edit, or an ipb with other
wording). Regression (bug kind: a message that blames the wrong cause): a GRP whose text alone differs
(a computed value or required element written another way, every verdict the same) was reported only
field by field, as if the gold had changed; a condition block whose key alone differs was "edited after
it was made?", whichever part differed. Each now says which part differs and, where an ipb could have
written it, names both causes with the ipb version the manifest records beside this one.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from ipb.perturb import Job, generate, parse_recipes, verify_items, write_lines
from ipb.perturb.items import tool_version
from perturb_support import BUFFETT, CARDS, FIXTURES, SCENARIOS

DCF = "buffett_owner_earnings_dcf"
NEW_AUTHOR = str(CARDS / "new_author_screen.yaml")
DALIO = str(CARDS / "cbdc_dalio_machine.yaml")


def _verify(tmp_path: Any, item: dict[str, Any], cards: dict[str, str] | None = None) -> list[str]:
    path = tmp_path / "items.jsonl"
    write_lines(path, [json.dumps(item)])
    check = verify_items(path, cards=cards)
    assert [c.record for c in check.mismatched] == [1], [c.problems for c in check.checks]
    return check.mismatched[0].problems


@pytest.fixture(scope="module")
def dcf_item() -> dict[str, Any]:
    base = sorted((SCENARIOS / DCF).glob("*.yaml"))[0]
    for line in generate(Job((DCF,), str(base), 0, parse_recipes("metric")), 20).lines:
        item = json.loads(line)
        if any(g["computed_value"] for g in item["grp"]["gold_program"]):
            return item
    raise AssertionError("no DCF item with a computed value")


def _old(item: dict[str, Any], version: str = "0.0.1") -> dict[str, Any]:
    item = json.loads(json.dumps(item))
    item["manifest"]["tool"]["version"] = version
    return item


def test_a_grp_whose_computed_value_is_written_otherwise_names_both_causes(dcf_item, tmp_path):
    item = _old(dcf_item)
    gate = next(g for g in item["grp"]["gold_program"] if g["computed_value"])
    gate["computed_value"] = gate["computed_value"] + " (rounded)"  # as an ipb with other number wording writes it
    problems = _verify(tmp_path, item)
    line = next(p for p in problems if p.startswith("grp: only its wording differs"))
    assert f"(computed_value of gate {gate['gate']})" in line, line
    assert "every gate verdict, kill, the final verdict and the trigger agree with the card" in line, line
    assert "either the GRP was edited, or it was written by ipb 0.0.1, whose GRP wording may differ from this " \
           f"ipb's ({tool_version()})" in line, line


def test_a_grp_required_element_written_otherwise_on_two_gates(tmp_path):
    item = _old(json.loads(generate(Job((NEW_AUTHOR,), str(FIXTURES / "new_author_base.yaml"), 3,
                                        parse_recipes("metric")), 1).lines[0]), tool_version())
    for gate in item["grp"]["gold_program"][:2]:
        gate["required_elements"] = [e + "." for e in gate["required_elements"]]
    line = next(p for p in _verify(tmp_path, item, {"new_author_screen": NEW_AUTHOR})
                if p.startswith("grp: only its wording differs"))
    assert "(required_elements of gates 1, 2)" in line and "the same version as this one" in line, line


def test_a_changed_verdict_is_not_called_wording(dcf_item, tmp_path):
    item = _old(dcf_item)
    gate = item["grp"]["gold_program"][0]
    gate["computed_value"] = "edited"
    gate["verdict"] = "REJECT" if gate["verdict"] != "REJECT" else "PROCEED"
    problems = _verify(tmp_path, item)
    assert not any("only its wording differs" in p for p in problems), problems
    assert any(p.startswith(f"gate {gate['gate']} ") and ": verdict " in p for p in problems), problems


def test_an_l8_grp_wording_line_names_its_card(tmp_path):
    item = _old(json.loads(generate(Job((BUFFETT, DALIO), str(FIXTURES / "cbdc_l8.yaml"), 2, parse_recipes("metric")),
                                    1).lines[0]))
    item["golds"][1]["grp"]["gold_program"][0]["required_elements"].append("an element another ipb writes")
    problems = _verify(tmp_path, item, {"cbdc_dalio_machine": DALIO})
    assert any(p.startswith("cbdc_dalio_machine: grp: only its wording differs (required_elements of gate 1)")
               for p in problems), problems


# --------------------------------------------------------------------------- conditions B and C

@pytest.fixture(scope="module")
def screen_item() -> dict[str, Any]:
    return json.loads(generate(Job((NEW_AUTHOR,), str(FIXTURES / "new_author_base.yaml"), 3,
                                   parse_recipes("metric")), 1).lines[0])


def _condition_line(tmp_path: Any, item: dict[str, Any], name: str) -> str:
    problems = _verify(tmp_path, item, {"new_author_screen": NEW_AUTHOR})
    return next(p for p in problems if p.startswith(f"condition {name} context differs"))


def test_a_condition_key_alone_names_both_causes(screen_item, tmp_path):
    for name in ("B", "C"):
        item = _old(screen_item)
        item["conditions"][name]["key"] = "0" * 64  # as an ipb that hashes another document writes it
        line = _condition_line(tmp_path, item, name)
        assert f"either conditions.{name}.key was edited, or it was written by ipb 0.0.1, whose condition key may " \
               f"differ from this ipb's ({tool_version()})" in line, line


def test_an_edited_question_is_named_as_the_cause_of_condition_b(screen_item, tmp_path):
    item = _old(screen_item)
    item["conditions"]["B"]["query_sha256"] = "0" * 64
    line = _condition_line(tmp_path, item, "B")
    assert "its query_sha256 is not the SHA-256 of the question: the question (or conditions.B) was edited" in line
    assert "0.0.1" not in line  # the SHA-256 of a text is the same in every ipb: no upgrade explains it


def test_edited_cards_are_named_as_the_cause_of_condition_c(screen_item, tmp_path):
    item = _old(screen_item)
    item["conditions"]["C"]["cards"][0]["content_hash"] = "0" * 64
    line = _condition_line(tmp_path, item, "C")
    assert "its cards [" in line and "differ from the manifest's cards [" in line, line
    assert "the manifest's cards or conditions.C were edited after the item was made" in line, line
