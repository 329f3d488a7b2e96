"""``ipb investors --investors MY`` without ``--check`` listed an entry naming an unknown card silently (stop 63 left).

Regression kind: *silent listing*. ``ipb check MY`` warns ``unknown-card`` at the card's list entry and ``ipb investors
--investors MY --check`` refuses it (exit 1), but the plain listing, the command an author runs first to see their
investor, said nothing. It now prints ``ipb check``'s warning on standard error, at file:line:col, and still exits 0
(the card may come from ``ipb-cards/`` beside the items at score time); ``--cards DIR`` holding the card silences it.
Real ``ipb`` subprocesses.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.engine.test_user_registry_check_s62 import OWN, _own_card

IPB = str(Path(sys.executable).parent / "ipb")

WARNING = ("mine.yaml:14:13: warning: card 'quill_net_net' listed for 'ada_quill' is not a bundled card nor in the "
           "--cards folders or IPB_CARDS; pass the folder of your cards with --cards DIR (ipb score and ipb respond "
           "also find it in ipb-cards/ beside the items)")


def _ipb(*args: str, cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if k not in ("IPB_INVESTORS", "IPB_CARDS")}
    return subprocess.run([IPB, *args], cwd=cwd, capture_output=True, text=True, timeout=300,
                          env={**clean, "COLUMNS": "200", **env})


def test_the_plain_listing_warns_at_an_unknown_card_as_ipb_check_does(tmp_path: Path) -> None:
    (tmp_path / "mine.yaml").write_text(OWN, encoding="utf-8")
    got = _ipb("investors", "--investors", "mine.yaml", cwd=tmp_path)
    assert got.returncode == 0, got.stderr
    assert got.stderr.splitlines() == [WARNING, "        cards: [quill_net_net]", "                ^"]
    assert "ada_quill" in got.stdout  # still listed
    checked = _ipb("check", "mine.yaml", cwd=tmp_path)
    assert WARNING in checked.stdout  # the same words as ipb check


def test_json_listing_and_ipb_investors_env_warn_too(tmp_path: Path) -> None:
    (tmp_path / "mine.yaml").write_text(OWN, encoding="utf-8")
    got = _ipb("investors", "--format", "json", cwd=tmp_path, IPB_INVESTORS="mine.yaml")
    assert got.returncode == 0, got.stderr
    assert got.stderr.splitlines()[0] == WARNING
    assert json.loads(got.stdout)[-1]["cards"] == ["quill_net_net"]  # stdout stays pure JSON


def test_no_warning_when_the_card_is_found_or_no_own_file_is_given(tmp_path: Path) -> None:
    (tmp_path / "mine.yaml").write_text(OWN, encoding="utf-8")
    _own_card(tmp_path / "cards")
    got = _ipb("investors", "--investors", "mine.yaml", "--cards", "cards", cwd=tmp_path)
    assert (got.returncode, got.stderr) == (0, "")
    bundled = _ipb("investors", cwd=tmp_path)
    assert (bundled.returncode, bundled.stderr) == (0, "")
