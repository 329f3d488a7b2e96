"""A perturbation grid too fine to index is refused by ``ipb check`` at the input's step (breaker finding).

``check`` said ok to a card whose ``range``/``step`` made about 10^32 grid points, and ``perturb`` then refused
it with no file or line.
"""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from ipb.cli import app

ROOT = Path(__file__).resolve().parents[2]


def _card(tmp_path: Path, step: str) -> Path:
    text = (ROOT / "frameworks" / "graham_net_net_screen.yaml").read_text(encoding="utf-8")
    old = "    range: [$1M, $500M]\n    step: $1M\n"
    assert text.count(old) == 1
    path = tmp_path / "fine.yaml"
    path.write_text(text.replace(old, f"    range: [$1, $100T]\n    step: {step}\n"), encoding="utf-8")
    return path


def test_a_grid_of_more_than_10_to_the_18_points_is_a_located_check_error(tmp_path: Path) -> None:
    path = _card(tmp_path, "$0.01")  # 10^16 points: fine
    r = CliRunner().invoke(app, ["check", str(path)])
    assert r.exit_code == 0, r.output
    path = _card(tmp_path, "$0.000001")  # 10^20 points
    r = CliRunner().invoke(app, ["check", str(path)])
    assert r.exit_code != 0
    assert "grid points" in r.output and "fine.yaml:" in r.output
