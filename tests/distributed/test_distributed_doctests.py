"""The Examples blocks of ipb.distributed run as doctests (no Ray needed)."""

from __future__ import annotations

import doctest
import importlib

import pytest


@pytest.mark.parametrize("name", ["ipb.distributed.embed_cache", "ipb.distributed.score"])
def test_docstring_examples(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0
    assert result.attempted > 0


def test_ray_missing_is_a_clear_error(monkeypatch):
    """Without ray, --backend ray says how to install the extra instead of a traceback."""
    import builtins

    from ipb.distributed import DistributedError, require_ray

    real = builtins.__import__

    def no_ray(name, *args, **kwargs):
        if name == "ray":
            raise ImportError("no ray")
        return real(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_ray)
    with pytest.raises(DistributedError, match=r"pip install 'ipb\[ray\]'"):
        require_ray()


def test_an_unreachable_head_is_a_clear_error_at_once(tmp_path):
    """ray.init alone waits minutes for a head that is not there; the CLI says so in seconds, exit 1."""
    import socket
    import time
    from pathlib import Path

    from typer.testing import CliRunner

    from ipb.cli import app

    pytest.importorskip("ray", reason="the Ray backend needs the optional extra: pip install 'ipb[ray]'")
    base = (Path(__file__).resolve().parents[2] / "frameworks" / "scenarios" / "buffett_acquisition_checklist"
            / "ipb_p_011_base.yaml")
    with socket.socket() as s:  # a port nothing listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    args = ["perturb", "--card", "buffett_acquisition_checklist", "--base", str(base), "--n", "5",
            "--out", str(tmp_path / "items.jsonl"), "--backend", "ray", "--ray-address"]
    start = time.monotonic()
    r = CliRunner().invoke(app, [*args, f"127.0.0.1:{port}"])
    assert r.exit_code == 1
    assert f"cannot reach the Ray head at 127.0.0.1:{port}" in r.output
    assert time.monotonic() - start < 30
    r = CliRunner().invoke(app, [*args, "nonsense"])
    assert r.exit_code == 1 and "--ray-address must be HOST:PORT" in r.output
    assert not list(tmp_path.iterdir())  # no output, no checkpoint folder
