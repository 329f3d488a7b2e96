"""``ipb respond --card FILE``: a card file alone, its id read from the card (s64's closing note, left from F8); bug
kind: one option, two syntaxes across commands.

``ipb perturb --card``, ``ipb check --card`` and (since s64ufix, F8) ``ipb verify --card`` take a card file's path;
``ipb respond --card`` took only ``ID=PATH`` and refused a path with "--card expects ID=PATH". The two commands now
share one helper (``ipb.cli._card_specs.card_spec``). Real ``ipb`` processes: an edited copy of the test card (its
name changed) given either way gives byte-identical dry-run requests, both carrying the edited name into condition
C; a missing file is one error naming ``--card`` and the file, exit 1.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from respond_support import DALIO_TEST_CARD, ITEMS

ROOT = Path(__file__).resolve().parents[2]
IPB_COMMAND = (sys.executable, "-c", "from ipb.cli import main; main()")
EDITED = "Economic Machine Reading of a CBDC (edited copy, s65)"


def _respond(*card: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("IPB_CARDS", "IPB_INVESTORS")}
    return subprocess.run([*IPB_COMMAND, "respond", "--items", str(ITEMS), "--model", "m", "--dry-run", "--conditions",
                           "C", "--no-cache", *card], cwd=ROOT, capture_output=True, text=True, env=env, timeout=300)


def test_a_card_file_alone_is_read_for_its_id(tmp_path: Path) -> None:
    text = DALIO_TEST_CARD.read_text(encoding="utf-8")
    assert text.count("\nname: ") == 1
    edited = tmp_path / "my_copy.yaml"  # not named after its id: the id comes from the card
    edited.write_text("\n".join(f"name: {EDITED}" if line.startswith("name: ") else line
                                for line in text.split("\n")), encoding="utf-8")
    by_path = _respond("--card", str(edited))
    by_id = _respond("--card", f"cbdc_dalio_machine={edited}")
    assert by_path.returncode == 0, by_path.stderr
    assert by_id.returncode == 0, by_id.stderr
    assert by_path.stdout == by_id.stdout
    assert by_path.stdout.count(f"Framework card: {EDITED} (Ray Dalio)") == 1  # the L8 item's condition C


def test_a_missing_card_file_is_one_error_naming_the_option(tmp_path: Path) -> None:
    missing = tmp_path / "nope.yaml"
    proc = _respond("--card", str(missing))
    assert proc.returncode == 1
    said = " ".join(proc.stderr.split())
    assert f"--card expects a card file or ID=PATH, got '{missing}': no such card file" in said
    assert "Traceback" not in proc.stderr and proc.stdout == ""


def test_an_id_that_is_not_the_files_card_is_refused(tmp_path):
    # s65 breaker 1: --card buffett_acquisition_checklist=<the Graham net-net file> gave the model Graham's card for
    # Buffett's items and recorded it as matching; now one line names both ids, exit 1, nothing sent
    from ipb.cli._card_specs import card_spec
    from ipb.errors import LoadError

    graham = str(ROOT / "frameworks" / "graham_net_net_screen.yaml")
    with pytest.raises(LoadError) as caught:
        card_spec(f"buffett_acquisition_checklist={graham}")
    message = str(caught.value)
    assert "is card 'graham_net_net_screen', not 'buffett_acquisition_checklist'" in message
    assert card_spec(f"graham_net_net_screen={graham}") == ("graham_net_net_screen", graham)
