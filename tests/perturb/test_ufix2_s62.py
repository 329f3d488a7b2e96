"""Findings of s62's new user and breaker (/work/notes/NEWUSER_s62.md) fixed by s62ufix2 (issue 18).

N3 (bug kind: two rules for one check): ``ipb join`` judged a description-edited card copy already in the output's
``ipb-cards/`` with the card search of the input (condition B's knowledge of the cards an investor lists read through
the input's good copy), passed it, and wrote a release that ``ipb verify`` failed on every line ("condition B
knowledge differs"); the same copy beside the input was refused.
"""

from __future__ import annotations

from typer.testing import CliRunner

from ipb.cli import app
from ipb.perturb.verify import verify_items
from tests.perturb.test_copy_rule_s61 import _bundled_made

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
