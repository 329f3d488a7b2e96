"""Finding F10 of s64's new user (/work/notes/NEWUSER_s64.md); bug kind: a silent always-true (or -false) term.

``min_growth <= sales_growth_5y <= 40% >= 3%`` passed ``ipb check`` with no word: its last link compares two
constants (40% >= 3%), always true, so it decides nothing; ``... <= 40% <= 3%`` is always false and makes the whole
chain false. ``ipb check`` now warns (``constant-link``) at the link's line:col with its truth value. A chain whose
links each read a name, and a single comparison, do not warn. Real ``ipb check`` processes on the user's Fisher card
(tests/fixtures/new_user64) with gate 1's ``proceed`` rewritten (line 101, the link at column 47).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FISHER = ROOT / "tests" / "fixtures" / "new_user64" / "fisher_six_points.yaml"
IPB_COMMAND = (sys.executable, "-c", "from ipb.cli import main; main()")
ORIGINAL = "    proceed: sales_growth_5y >= min_growth\n"


def _check(tmp_path: Path, proceed: str) -> tuple[int, str]:
    text = FISHER.read_text(encoding="utf-8")
    assert text.count(ORIGINAL) == 1
    card = tmp_path / "fisher_six_points.yaml"
    card.write_text(text.replace(ORIGINAL, f"    proceed: {proceed}\n"), encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k not in ("IPB_CARDS", "IPB_INVESTORS")}
    proc = subprocess.run([*IPB_COMMAND, "check", str(card)], cwd=ROOT, capture_output=True, text=True, env=env,
                          timeout=300)
    return proc.returncode, proc.stdout + proc.stderr


@pytest.mark.parametrize("proceed, link, truth, effect", [
    ("min_growth <= sales_growth_5y <= 40% >= 3%", "40% >= 3%", "true", "decides nothing"),
    ("min_growth <= sales_growth_5y <= 40% <= 3%", "40% <= 3%", "false", "makes the whole chain false"),
], ids=["always-true", "always-false"])
def test_a_link_between_two_constants_warns_at_its_place(tmp_path: Path, proceed, link, truth, effect) -> None:
    code, said = _check(tmp_path, proceed)
    assert code == 0, said  # a warning, not an error
    assert (f"fisher_six_points.yaml:101:47: warning: the link {link!r} of this chained comparison compares two "
            f"constants: it is always {truth}, so it {effect}; leave it out") in said
    assert "constant-link 1" in said


@pytest.mark.parametrize("proceed", ["min_growth <= sales_growth_5y <= 40%", "sales_growth_5y >= min_growth",
                                     "weak_growth <= sales_growth_5y < min_growth"])
def test_links_that_read_a_name_do_not_warn(tmp_path: Path, proceed) -> None:
    code, said = _check(tmp_path, proceed)
    assert code == 0 and "constant-link" not in said, said
