"""Finding F7 of s64's new user (/work/notes/NEWUSER_s64.md); bug kind: a contradiction check passes.

``require: rd_spend > revenue`` beside ``require: rd_spend <= 25% * revenue`` passed ``ipb check`` (rules over two
inputs are judged one at a time), and ``ipb perturb`` made 300 items none of which could state ``rd_spend``. Two
rules that bound the quotient of the same two inputs so that no quotient meets both now warn
(``incompatible-constraints``, engine/_rule_pairs.py). Each case's answer is worked by hand from the bounds.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from ipb.engine._demo import demo_card
from ipb.engine._rule_pairs import incompatible_rules
from tests.perturb.perturb_support import IPB_COMMAND, ROOT

HEAD = """inputs:
  rd: {type: money, range: [$1M, $5B]}
  sales: {type: money, range: [$50M, $20B]}
  loss: {type: money, range: [-$1B, $1B]}
constants:
  cap: {value: 30%}
constraints:
"""
TAIL = """gates:
  - {id: g, name: G, proceed: rd > $1M, required_elements: [x]}
"""


def _warned(*rules: str) -> list[str]:
    text = HEAD + "".join(f"  - {{id: r{i}, require: '{r}'}}\n" for i, r in enumerate(rules)) + TAIL
    return [w.message for _, w in incompatible_rules(demo_card(text))]


@pytest.mark.parametrize("rules, warns", [
    (("rd > sales", "rd <= 25% * sales"), True),        # rd/sales > 1 and <= 0.25: the user's pair
    (("rd <= 25% * sales", "rd > sales"), True),        # either order
    (("rd >= sales", "rd <= sales"), False),            # both admit rd/sales == 1
    (("rd > sales", "rd <= sales"), True),              # > 1 and <= 1: none
    (("rd >= 0.3 * sales", "rd < cap * sales"), True),  # >= 0.3 and < 30% (a constant): none
    (("rd >= 0.3 * sales", "rd <= sales * cap"), False),  # exactly 0.3 meets both
    (("rd > 2 * sales", "sales >= rd"), True),          # rd/sales > 2, and sales/rd >= 1 is rd/sales <= 1
    (("rd > 2 * sales", "sales >= 0.25 * rd"), False),  # rd/sales <= 4 leaves (2, 4]
    (("rd > sales", "rd > 5 * sales"), False),          # two lower bounds always meet
    (("rd > loss", "rd < 0.5 * loss"), False),          # loss can be 0 or below: not read as a quotient
    (("rd > sales", "rd + 1 <= 25% * sales"), False),   # another shape: not judged
])
def test_pairs_of_rules(rules, warns):
    assert bool(_warned(*rules)) is warns


def test_the_message_names_both_rules_and_bounds():
    (message,) = _warned("rd > sales", "rd <= 25% * sales")
    assert message == ("constraints 'r0' (rd > sales) and 'r1' (rd <= 25% * sales) hold together for no value of "
                       "rd / sales (> 1 and <= 0.25, sales being above 0 on its range): every scenario that states "
                       "both rd and sales breaks one of them, so ipb perturb never states the two together; check the "
                       "rules (one bound the wrong way round?)")


def test_ipb_check_warns_at_the_later_rule(tmp_path):
    neff = Path(__file__).resolve().parents[1] / "perturb" / "cards" / "neff_new_user.yaml"
    text = neff.read_text(encoding="utf-8")
    added = ("constraints:\n  - id: rich\n    require: pe > market_pe\n"
             "  - id: cheap\n    require: pe <= 60% * market_pe\n")
    card = tmp_path / "neff.yaml"
    card.write_text(text.replace("constraints:\n", added, 1), encoding="utf-8")
    line = text[:text.index("constraints:\n")].count("\n") + 5  # "    require: pe <= 60% * market_pe"
    proc = subprocess.run([*IPB_COMMAND, "check", str(card)], cwd=ROOT, capture_output=True, text=True, timeout=120)
    said = proc.stdout + proc.stderr
    assert proc.returncode == 0, said
    assert (f"{card}:{line}:14: warning: constraints 'rich' (pe > market_pe) and 'cheap' (pe <= 60% * market_pe) "
            "hold together for no value of market_pe / pe") in " ".join(said.split()), said
