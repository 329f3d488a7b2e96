"""Findings of s62's new user and breaker (/work/notes/NEWUSER_s62.md) fixed by s62ufix2 (issue 18).

N3 (bug kind: two rules for one check): ``ipb join`` judged a description-edited card copy already in the output's
``ipb-cards/`` with the card search of the input (condition B's knowledge of the cards an investor lists read through
the input's good copy), passed it, and wrote a release that ``ipb verify`` failed on every line ("condition B
knowledge differs"); the same copy beside the input was refused.
"""

from __future__ import annotations

import json
import os
import subprocess
from decimal import Decimal

import pytest
from typer.testing import CliRunner

from ipb.cli import app
from ipb.perturb.verify import verify_items
from perturb_support import IPB_COMMAND, ROOT
from tests.perturb.test_card_copy_hash_s60 import _perturb
from tests.perturb.test_copy_rule_s61 import _bundled_made
from tests.perturb.test_newuser_s59b import CARD
from tests.perturb.test_ufix_s62 import _L8_BASE, _UP, _L8_HEAD

runner = CliRunner()


def _join(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, ["join", *args])
    return result.exit_code, " ".join(result.output.split())


# N3 ---------------------------------------------------------------------------------------------------------------

def test_a_description_edited_copy_of_a_listed_card_beside_the_output_is_refused(tmp_path):
    # Before: exit 0, two warnings, "wrote ...: 4 item(s) of 4", and ipb verify of the release: 0 of 4, every line
    # "condition B knowledge differs".
    items, good = _bundled_made(tmp_path)
    out = tmp_path / "release" / "items.jsonl"
    stale = out.parent / "ipb-cards" / good.name
    stale.parent.mkdir(parents=True)
    edited = good.read_text(encoding="utf-8").replace('as a "net-net" bargain', "as a net-net bargain", 1)
    assert edited != good.read_text(encoding="utf-8")
    stale.write_text(edited, encoding="utf-8")
    code, text = _join(str(items), "--out", str(out))
    assert code == 1 and not out.exists(), text
    assert text.startswith(f"{stale}: load error: line 1 of {items} (id ")
    assert (f"fails ipb verify against the card copy {stale}, which changed since the items were made (it does not "
            "hash to its name, the sha256 the items name) and is the one the release carries, as it is already "
            "beside the output: condition B knowledge differs") in text
    assert f"{good}, beside an input, hashes to its name: copy it over {stale}, or remove {stale}" in text
    stale.unlink()  # as the message says: the good copy is then carried, and the release verifies
    code, text = _join(str(items), "--out", str(out))
    assert code == 0, text
    assert stale.read_bytes() == good.read_bytes() and verify_items(out).ok


# N7 ---------------------------------------------------------------------------------------------------------------

BUFFETT_BASE = "frameworks/scenarios/buffett_acquisition_checklist/ipb_p_011_base.yaml"
FULL = "ipb: cannot write standard output: No space left on device; what it holds is incomplete"


def _to_full(*args: str) -> tuple[int, str]:
    """``ipb ARGS > /dev/full`` in a process of its own, as the console script runs it."""
    with open("/dev/full", "wb") as full:
        proc = subprocess.run([*IPB_COMMAND, *args], cwd=ROOT, stdout=full, stderr=subprocess.PIPE, timeout=300)
    return proc.returncode, proc.stderr.decode("utf-8")


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full on this system")
def test_standard_output_on_a_full_device_is_one_line_and_exit_1(tmp_path):
    # Before: exit 1 and a rich traceback ending "OSError: [Errno 28] No space left on device" (plain traceback for
    # the fast ipb run path) for every one of these.
    items = _perturb(tmp_path / "made", CARD.encode("utf-8"))
    answer = tmp_path / "answer.txt"
    answer.write_text("Gate 1: PROCEED. Gate 2: PROCEED. Final verdict: BUY\n", encoding="utf-8")
    commands = [("verify", str(items)), ("verify", str(items), "--format", "json"),
                ("run", "buffett_acquisition_checklist", BUFFETT_BASE), ("check", BUFFETT_BASE),
                ("parse", "buffett_acquisition_checklist", str(answer), "--no-embed"),
                ("parse", "buffett_acquisition_checklist", str(answer), "--no-embed", "--format", "json"),
                ("investors",), ("catalog",)]
    for command in commands:
        assert _to_full(*command) == (1, FULL + "\n"), command


# N2 ---------------------------------------------------------------------------------------------------------------

# price_to_book drawn on [0.5x, 1.5x]; up_rule derives it as market_cap / book_value, both on [$100M, $2B], so its
# own range [0.05x, 20x] is far wider
_NARROW = _L8_HEAD.format(id="narrow_pb") + """\
inputs:
  price_to_book: {type: multiple, range: [0.5x, 1.5x], step: 0.01x}
gates:
  - {id: fair, name: Fair price, proceed: price_to_book < 1.2x, required_elements: [price_to_book]}
"""


def _narrow_files(tmp_path):
    up, narrow, base = tmp_path / "up.yaml", tmp_path / "narrow.yaml", tmp_path / "base.yaml"
    up.write_text(_UP, encoding="utf-8")
    narrow.write_text(_NARROW, encoding="utf-8")
    base.write_text(_L8_BASE.replace("  book_discount: 20%\n", ""), encoding="utf-8")
    return up, narrow, base


def test_a_derived_value_outside_another_cards_range_breaks_the_frame(tmp_path):
    from ipb.perturb.frame import build_frame, narrower_derived, shared_range

    up, narrow, _ = _narrow_files(tmp_path)
    frame = build_frame([str(up), str(narrow)])
    assert shared_range(frame, "price_to_book") == (Decimal("0.5"), Decimal("1.5"))
    assert shared_range(frame, "market_cap") == (Decimal("100000000"), Decimal("2000000000"))
    # $1.8B / $1B = 1.8x: inside up_rule's [0.05x, 20x], outside narrow_pb's [0.5x, 1.5x]
    high = {"market_cap": Decimal("1800000000"), "book_value": Decimal("1000000000")}
    said = "up_rule/pb_from_parts (derived price_to_book outside the range another card declares for it)"
    assert narrower_derived(frame, high) == [said]
    assert said in frame.violations_from({}, high, ("market_cap",))
    assert frame.breaks_constraint({}, high, ("market_cap",))
    # $1.2B / $1B = 1.2x, and $500M / $1B = 0.5x (the range's end): inside both
    assert narrower_derived(frame, {"market_cap": Decimal("1200000000"), "book_value": Decimal("1000000000")}) == []
    assert narrower_derived(frame, {"market_cap": Decimal("500000000"), "book_value": Decimal("1000000000")}) == []
    assert narrower_derived(build_frame([str(up)]), high) == []  # one card: its own range, violations' rule


def test_an_l8_run_keeps_a_derived_input_inside_every_cards_range(tmp_path):
    # Before: ipb verify failed items, "fact price_to_book = ... is outside the range [0.5x, 1.5x] that card
    # 'narrow_pb' declares for it": 2.16x, 1.85x, ... with these cards and seed).
    up, narrow, base = _narrow_files(tmp_path)
    for order in ((up, narrow), (narrow, up)):
        out = tmp_path / order[0].stem / "items.jsonl"
        made = runner.invoke(app, ["perturb", "--card", str(order[0]), "--card", str(order[1]), "--base", str(base),
                                   "--n", "40", "--seed", "3", "--out", str(out)])
        assert made.exit_code == 0, made.output
        checked = verify_items(out)
        assert checked.ok, [c.problems[:1] for c in checked.checks if c.status != "ok"][:3]
        facts = [json.loads(line)["scenario"]["facts"] for line in out.read_text(encoding="utf-8").splitlines()]
        assert len(facts) == 40
        for f in facts:
            if "price_to_book" in f:
                assert Decimal("0.5") <= Decimal(f["price_to_book"].rstrip("x")) <= Decimal("1.5"), f
