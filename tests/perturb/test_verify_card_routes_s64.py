"""Finding F1 of s64's new user (/work/notes/NEWUSER_s64.md); bug kind: two routes to one card disagree.

A registered card of the user's own (its investor lists it, so condition B's knowledge hash covers it) edited
without a gold change (a value added to a category, a reworded description) was checked two ways:
``ipb verify ITEMS --cards DIR`` (or ``IPB_CARDS=DIR``) failed every record with "condition B knowledge differs",
``ipb verify ITEMS --card ID=PATH`` verified every record with the changed-card warning. docs/perturbation.md
("Verifying items after a card edit") promises a changed card is a warning, not a failure: the knowledge hash is
recomputed with the item's own hash for a card verify already warns changed, so all three routes give exit 0 and
the warning; a knowledge change of anything else (here the registry entry) still fails on each route.
Real ``ipb`` processes, as the user ran them.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from perturb_support import IPB_COMMAND, NEFF_REGISTRY, ROOT
from tests.perturb.test_conditions_s59 import NEFF, NEFF_BASE

CARD_ID = "neff_total_return_screen"


def _ipb(*args: str, env: dict[str, str] | None = None) -> tuple[int, str]:
    full = {k: v for k, v in os.environ.items() if k not in ("IPB_CARDS", "IPB_INVESTORS")}
    full.update(env or {})
    proc = subprocess.run([*IPB_COMMAND, *args], cwd=ROOT, capture_output=True, text=True, env=full, timeout=300)
    return proc.returncode, " ".join((proc.stdout + proc.stderr).split())


@pytest.fixture(scope="module")
def release(tmp_path_factory) -> tuple[Path, Path, Path]:
    """(items, registry, folder holding the edited card as ``CARD_ID.yaml``): 3 items of Neff's card given by path
    with a registry that lists it, then the card's description reworded (no gold can change)."""
    root = tmp_path_factory.mktemp("routes")
    registry = root / "investors.yaml"
    registry.write_text(NEFF_REGISTRY, encoding="utf-8")
    out = root / "run" / "items.jsonl"
    code, said = _ipb("perturb", "--card", str(NEFF), "--base", str(NEFF_BASE), "--n", "3", "--seed", "64",
                      "--investors", str(registry), "--out", str(out))
    assert code == 0, said
    folder = root / "cards"
    folder.mkdir()
    text = NEFF.read_text(encoding="utf-8")
    edited = text.replace("Whether a stock belongs", "Whether a share belongs", 1)
    assert edited != text
    (folder / f"{CARD_ID}.yaml").write_text(edited, encoding="utf-8")
    return out, registry, folder


def _routes(release: tuple[Path, Path, Path], registry: Path) -> dict[str, tuple[int, str]]:
    items, _, folder = release
    card = folder / f"{CARD_ID}.yaml"
    common = ("verify", str(items), "--investors", str(registry))
    return {"--cards": _ipb(*common, "--cards", str(folder)),
            "IPB_CARDS": _ipb(*common, env={"IPB_CARDS": str(folder)}),
            "--card": _ipb(*common, "--card", f"{CARD_ID}={card}")}


def test_an_edit_without_a_gold_change_is_a_warning_by_every_route(release):
    for route, (code, said) in _routes(release, release[1]).items():
        assert code == 0, (route, said)
        assert "verified 3 of 3 item(s): 0 gold mismatch(es)" in said, (route, said)
        assert f"warning: card '{CARD_ID}' changed since the items were made" in said, (route, said)
        assert "condition B knowledge differs" not in said, (route, said)


def test_a_registry_change_still_fails_by_every_route(release, tmp_path):
    # the knowledge hash still does its work: the investor's entry changed, which is no card edit verify warns of
    registry = tmp_path / "investors.yaml"
    registry.write_text(NEFF_REGISTRY.replace("total return ratio, low price-earnings",
                                              "total return ratio, low multiples"), encoding="utf-8")
    for route, (code, said) in _routes(release, registry).items():
        assert code == 1, (route, said)
        assert "verified 0 of 3 item(s)" in said and "condition B knowledge differs" in said, (route, said)


# F8: ``ipb verify --card FILE`` was refused ("--card expects ID=PATH") while perturb and check take a path --------

def test_verify_takes_a_card_file_alone_for_the_id_it_declares(release):
    items, registry, folder = release
    card = folder / f"{CARD_ID}.yaml"
    renamed = folder.parent / "my edit.yaml"  # the id is read from the card, not from the file's name
    renamed.write_bytes(card.read_bytes())
    for given in (card, renamed):
        code, said = _ipb("verify", str(items), "--investors", str(registry), "--card", str(given))
        assert code == 0, said
        assert "verified 3 of 3 item(s): 0 gold mismatch(es)" in said
        assert f"the card found now ({given}, given with --card)" in said


@pytest.mark.parametrize("spec, message", [
    ("no_such.yaml", "--card: load error: --card expects a card file or ID=PATH, got 'no_such.yaml': no such card file"),
    ("x=", "--card: load error: --card expects a card file or ID=PATH, got 'x='"),
    ("=a.yaml", "--card: load error: --card expects a card file or ID=PATH, got '=a.yaml'"),
])
def test_verify_card_refusals(release, spec, message):
    code, said = _ipb("verify", str(release[0]), "--card", spec)
    assert code == 1 and said == message, said
