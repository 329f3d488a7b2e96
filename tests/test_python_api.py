"""The Python API (issue 17, item 5): plain values and DSL literals, docs/python-api.md as a doctest, a light import."""

from __future__ import annotations

import doctest
import subprocess
import sys
from decimal import Decimal
from pathlib import Path

import pytest

import ipb
from ipb.errors import LoadError

ROOT = Path(__file__).resolve().parents[1]
GRAHAM = "graham_net_net_screen"


def test_the_notebook_page_runs_as_written():
    result = doctest.testfile(str(ROOT / "docs" / "python-api.md"), module_relative=False,
                              optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0 and result.attempted >= 12


def test_dsl_literals_and_plain_values_give_the_same_trace():
    # NCAV = 45 - 12 - 3 = 30; two-thirds = 20: the boundary holds exactly whichever way it is written
    literal = {"market_value": "$20M", "current_assets": "$45M", "total_liabilities": "$12M",
               "preferred_stock": "$3M", "net_income": "$1M"}
    plain = {"market_value": 20_000_000, "current_assets": 45e6, "total_liabilities": Decimal("12e6"),
             "preferred_stock": 3_000_000.0, "net_income": 1e6}
    a, b = ipb.execute(GRAHAM, literal), ipb.execute(GRAHAM, plain)
    assert a.to_grp() == b.to_grp()
    assert a.verdicts() == ["PROCEED", "PROCEED"]


def test_a_float_ratio_is_read_as_written_at_the_threshold():
    # munger economics lens: return on capital >= 15% with a durable advantage; 0.15 is exactly 15%
    t = ipb.execute("munger_opportunity_evaluation", {"return_on_capital": 0.15, "competitive_advantage": "durable"})
    assert t.gates[0].verdict.value == "PROCEED"
    t = ipb.execute("munger_opportunity_evaluation", {"return_on_capital": "14.99%", "competitive_advantage": "durable"})
    assert t.gates[0].verdict.value == "REJECT"


@pytest.mark.parametrize(("facts", "text"), [
    ({"market_value": "95%"}, "market_value is a money"),
    ({"market_valu": "$1M"}, "did you mean 'market_value'"),
    ({"market_value": float("nan")}, "not a finite number"),
], ids=["wrong-unit", "misspelt", "nan"])
def test_bad_facts_are_load_errors_not_type_errors(facts, text):
    with pytest.raises(LoadError) as info:
        ipb.execute(GRAHAM, facts)
    assert text in str(info.value)


def test_import_ipb_loads_none_of_the_package():
    code = "import sys, ipb; print(sorted(m for m in sys.modules if m.startswith('ipb.')))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
    with pytest.raises(AttributeError):
        ipb.no_such_function  # noqa: B018


def test_score_against_a_card_loaded_from_a_file_outside_the_package(tmp_path):
    """A new user's card lives anywhere: ipb.score with card= must not look it up among the bundled cards."""
    import ipb

    source = (Path(__file__).resolve().parents[1] / "frameworks" / "graham_net_net_screen.yaml").read_text(encoding="utf-8")
    path = tmp_path / "my_net_net.yaml"
    path.write_text(source.replace("id: graham_net_net_screen", "id: my_net_net", 1), encoding="utf-8")
    card = ipb.load_card(str(path))
    assert card.card.id == "my_net_net"
    result = ipb.score("Gate 1, price at most two-thirds of NCAV: REJECT, market value $25M. Final verdict: DECLINE",
                       card=card, facts={"market_value": "$25M", "current_assets": "$45M",
                                         "total_liabilities": 12e6, "preferred_stock": "$3M", "net_income": "$1M"})
    assert (result["status"], result["metrics"]["verdict_acc"]) == ("scored", 1.0)


def test_parse_with_its_arguments_swapped_says_so():
    """A new user (stop 32) called ``ipb.parse(card, text)`` and got "'Gate 1 ...' is neither a card file nor a
    known card id"; the error now says the answer comes first and to swap them."""
    with pytest.raises(LoadError, match=r"takes the answer first and the card second.*'graham_net_net_screen' is a card"):
        ipb.parse("graham_net_net_screen", "Gate 1 (two-thirds of NCAV): REJECT. Final verdict: DECLINE")
    with pytest.raises(LoadError, match="neither a card file nor a known card id") as info:
        ipb.parse("Gate 1: REJECT.", "no_such_card")  # not swapped: the plain error
    assert "swap" not in str(info.value)
    assert ipb.parse("Gate 1 (two-thirds of NCAV): REJECT. Final verdict: DECLINE", "graham_net_net_screen").final_verdict == "DECLINE"
