"""The package is mypy-clean (STYLE: type hints on every public function)."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_mypy_clean():
    api = pytest.importorskip("mypy.api")
    folders = [str(ROOT / d) for d in ("ipb", "engine", "perturb", "respond", "scoring", "report", "neighbours", "integrations", "cli") if (ROOT / d).exists()]
    stdout, stderr, status = api.run(["--config-file", str(ROOT / "pyproject.toml"), *folders])
    assert status == 0, stdout + stderr
