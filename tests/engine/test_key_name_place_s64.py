"""Finding F6 of s64's new user (/work/notes/NEWUSER_s64.md); bug kind: error at the wrong place.

A key refused by the schema's ``propertyNames`` (an input named ``ventes_croissance_é``) was reported at the
mapping's place, i.e. its first key (``27:3``, the caret on ``sector:``), not at the offending key (line 36). The
error now points at the key itself; the message is unchanged.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from ipb.engine.card import load_card_text
from ipb.errors import IpbError
from tests.perturb.perturb_support import IPB_COMMAND, ROOT

NEFF = Path(__file__).resolve().parents[1] / "perturb" / "cards" / "neff_new_user.yaml"
TEXT = NEFF.read_text(encoding="utf-8")
assert TEXT.splitlines()[38] == "inputs:" and TEXT.splitlines()[44] == "  market_pe:"  # lines 39 and 45


def _with_input(name: str) -> str:
    """The Neff card with an input ``name`` put before ``market_pe`` (so on line 45, at column 3)."""
    return TEXT.replace("  market_pe:\n", f"  {name}:\n    type: ratio\n    description: Sales growth.\n  market_pe:\n", 1)


def _errors(text: str) -> list[IpbError]:
    with pytest.raises(IpbError) as caught:
        load_card_text(text, "card.yaml")
    exc = caught.value
    return list(getattr(exc, "errors", None) or [exc])


@pytest.mark.parametrize("name", ["ventes_croissance_é", "9lives", "sales-growth", "ОборотРост"])
def test_a_refused_input_name_is_reported_at_its_key(name):
    (error,) = _errors(_with_input(name))
    assert (error.line, error.column) == (45, 3), error
    assert f"{name!r} does not match '^[A-Za-z_][A-Za-z0-9_]*$' (at inputs/{name})" in error.message


def test_ipb_check_points_at_the_key(tmp_path):
    card = tmp_path / "uni_input.yaml"
    card.write_text(_with_input("ventes_croissance_é"), encoding="utf-8")
    proc = subprocess.run([*IPB_COMMAND, "check", str(card)], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 1
    lines = proc.stdout.splitlines() + proc.stderr.splitlines()
    at = next(i for i, line in enumerate(lines) if "does not match" in line)
    assert lines[at].startswith(f"{card}:45:3: load error: 'ventes_croissance_é' does not match"), lines
    assert lines[at + 1].strip() == "ventes_croissance_é:" and lines[at + 2].strip() == "^", lines
