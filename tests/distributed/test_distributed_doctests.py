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
