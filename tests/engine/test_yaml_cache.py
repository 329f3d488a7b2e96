"""The YAML cache by content hash (issue 17, item 7): same data and positions as a parse, never a wrong document."""

from __future__ import annotations

from pathlib import Path

import pytest

from ipb.engine import _yaml_cache
from ipb.engine._yaml import load_yaml, load_yaml_file
from ipb.engine.registry import bundled_card_paths
from ipb.errors import LoadError


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("IPB_CACHE_DIR", str(tmp_path))
    monkeypatch.delenv("IPB_NO_CACHE", raising=False)
    return tmp_path / "yaml"


def _same(a, b) -> bool:
    return (a.data, a.lines, a._values, a._keys, a._scalars) == (b.data, b.lines, b._values, b._keys, b._scalars)


def test_a_cached_card_has_the_same_data_and_positions_as_a_parse(cache, monkeypatch):
    paths = bundled_card_paths()[:6]
    first = [load_yaml_file(p, collect=True) for p in paths]
    assert len(list(cache.iterdir())) == len(paths)
    again = [load_yaml_file(p, collect=True) for p in paths]
    monkeypatch.setenv("IPB_NO_CACHE", "1")
    parsed = [load_yaml_file(p, collect=True) for p in paths]
    assert all(_same(a, b) and _same(b, c) for a, b, c in zip(first, again, parsed))
    assert again[0].file == str(paths[0]) and again[0].locate(("gates", 0, "id")) == parsed[0].locate(("gates", 0, "id"))


def test_the_cache_is_keyed_by_content_and_file_names_are_kept(cache):
    text = "name: Graham\nmargin: 0.57\n"
    assert load_yaml(text, "a.yaml").file == "a.yaml"
    doc = load_yaml(text, "b.yaml")  # from the cache, under its own name
    assert doc.file == "b.yaml" and doc.data == {"name": "Graham", "margin": __import__("decimal").Decimal("0.57")}
    assert load_yaml(text.replace("0.57", "0.58"), "c.yaml").data["margin"] == __import__("decimal").Decimal("0.58")


def test_a_corrupt_cache_entry_is_ignored_and_errors_are_never_cached(cache):
    text = "name: Graham\n"
    load_yaml(text, "a.yaml")
    (entry,) = cache.iterdir()
    entry.write_text("{not json", encoding="utf-8")
    assert load_yaml(text, "a.yaml").data == {"name": "Graham"}
    with pytest.raises(LoadError):
        load_yaml("listed: NO\n", "bad.yaml")
    with pytest.raises(LoadError):
        load_yaml("listed: NO\n", "bad.yaml")
    assert len(list(cache.iterdir())) == 1


def test_the_key_covers_the_loader_options():
    assert _yaml_cache.key("a: 1\n", True) != _yaml_cache.key("a: 1\n", False)
