"""``ipb check`` on a regimes or sectors registry saved under another name (s50break).

Registries are told by their file name (``regimes.yaml``, ``sectors.yaml``); a copy saved as ``r.yaml`` was read as
a scenario ("must name its 'card'") or as a card (13 errors about 'gates' and 'gate_logic'). It now gets one error
at line 1, column 1 that names the kind and the name to save it under.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ipb.cli import app

ROOT = Path(__file__).resolve().parents[1]
runner = CliRunner()


@pytest.mark.parametrize("kind", ["regimes", "sectors"])
def test_a_registry_under_another_name_is_named_for_what_it_is(tmp_path: Path, kind: str) -> None:
    copy = tmp_path / "mine.yaml"
    shutil.copy(ROOT / "frameworks" / f"{kind}.yaml", copy)
    result = runner.invoke(app, ["check", str(copy)])
    assert result.exit_code == 1
    assert f"{copy}:1:1: error: this looks like a {kind} registry" in result.output
    assert f"save it as {kind}.yaml" in result.output
    assert "checked 1 file(s): 1 error(s)" in result.output


def test_the_same_registry_under_its_own_name_checks_clean(tmp_path: Path) -> None:
    folder = tmp_path / "reg"
    folder.mkdir()
    shutil.copy(ROOT / "frameworks" / "regimes.yaml", folder / "regimes.yaml")
    result = runner.invoke(app, ["check", str(folder / "regimes.yaml")])
    assert "registry" not in result.output
