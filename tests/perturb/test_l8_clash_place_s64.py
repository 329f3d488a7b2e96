"""Finding F9 of s64's new user (/work/notes/NEWUSER_s64.md); bug kind: error without a place or the values.

An L8 deck whose two cards share a category input with no value in common was refused as ``BASE: perturb error:
input 'sector' of cards A and B has no category value in common``: no line:col, neither card's values. The error
now stands at the second card's ``values:`` line and lists both cards' values.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from ipb.errors import PerturbError
from ipb.perturb.frame import build_frame
from perturb_support import IPB_COMMAND, ROOT
from tests.perturb.test_conditions_s59 import NEFF, NEFF_BASE

VALUES_LINE = 75  # "    values: [steady_grower, cyclical, utility, financial]" under business_kind


@pytest.fixture()
def other(tmp_path) -> Path:
    """Neff's card under another id whose ``business_kind`` values share none with Neff's."""
    text = NEFF.read_text(encoding="utf-8")
    assert text.splitlines()[VALUES_LINE - 1] == "    values: [steady_grower, cyclical, utility, financial]"
    edited = (text.replace("id: neff_total_return_screen", "id: neff_other_screen", 1)
              .replace("values: [steady_grower, cyclical, utility, financial]", "values: [bank, insurer]", 1)
              .replace('business_kind == "cyclical"', 'business_kind == "insurer"', 1))
    path = tmp_path / "other.yaml"
    path.write_text(edited, encoding="utf-8")
    return path


MESSAGE = ("input 'business_kind' of cards neff_total_return_screen and neff_other_screen has no category value in "
           "common (neff_total_return_screen allows [steady_grower, cyclical, utility, financial], neff_other_screen "
           "allows [bank, insurer]): an L8 scenario states one value for both cards; give the cards a value in common")


def test_the_clash_names_both_value_lists_at_the_second_cards_values(other):
    with pytest.raises(PerturbError) as caught:
        build_frame([str(NEFF), str(other)])
    error = caught.value
    assert error.message == MESSAGE
    assert (error.file, error.line, error.column) == (str(other), VALUES_LINE, 5)


def test_ipb_perturb_says_it_at_the_card(other, tmp_path):
    proc = subprocess.run([*IPB_COMMAND, "perturb", "--card", str(NEFF), "--card", str(other), "--base",
                           str(NEFF_BASE), "--n", "3", "--out", str(tmp_path / "o" / "items.jsonl")],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)
    said = proc.stderr.splitlines()
    assert proc.returncode == 1
    assert said[0] == f"{other}:{VALUES_LINE}:5: perturb error: {MESSAGE}", said
    assert said[1].strip() == "values: [bank, insurer]" and said[2].strip() == "^"
    assert not (tmp_path / "o").exists()
