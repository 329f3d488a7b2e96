"""A response cache edited by hand or written by another tool is never a traceback (s48break).

Before: a row whose ``usage`` was not JSON ended ``ipb respond`` with ``JSONDecodeError`` and a traceback on the
first lookup; a ``responses`` table of another layout opened fine and then failed on the first lookup with
``OperationalError: no such column: finish_reason``. Now such a row is a cache miss (the request is made again and
the row replaced), and a table of another layout is one located ``RunError`` when the cache is opened.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from ipb.respond.cache import CACHE_FILE, ResponseCache
from ipb.respond.records import RunError


def _store(folder: Path, key: str = "k1") -> None:
    cache = ResponseCache(folder)
    cache.put(key, kind="respond", model="m", text="Final verdict: INVEST", finish_reason="stop",
              usage={"prompt_tokens": 3, "completion_tokens": 4, "total_tokens": 7}, latency_s=0.25,
              request={"kind": "respond"})
    cache.close()


def _edit(folder: Path, sql: str) -> None:
    db = sqlite3.connect(str(folder / CACHE_FILE))
    db.execute(sql)
    db.commit()
    db.close()


def test_a_row_read_back_as_stored(tmp_path: Path) -> None:
    _store(tmp_path)
    found = ResponseCache(tmp_path).get("k1")
    assert found is not None and found.text == "Final verdict: INVEST" and found.latency_s == 0.25
    assert found.usage == {"prompt_tokens": 3, "completion_tokens": 4, "total_tokens": 7}


@pytest.mark.parametrize("sql", [
    "UPDATE responses SET usage = 'not json'",  # before: JSONDecodeError, a traceback
    "UPDATE responses SET usage = '[1, 2]'",
    "UPDATE responses SET usage = '{\"total_tokens\": \"seven\"}'",
    "UPDATE responses SET latency_s = -5",
    "UPDATE responses SET latency_s = 'slow'",
    "UPDATE responses SET text = X'ff'",  # a blob that is not the bytes put stores for a lone surrogate
    "UPDATE responses SET finish_reason = X'00'",
])
def test_an_edited_row_is_a_miss_and_is_replaced(tmp_path: Path, sql: str) -> None:
    _store(tmp_path)
    _edit(tmp_path, sql)
    cache = ResponseCache(tmp_path)
    assert cache.get("k1") is None
    assert (cache.hits, cache.unreadable) == (0, 1)
    cache.put("k1", kind="respond", model="m", text="again", finish_reason="stop", usage=None, latency_s=1.0,
              request={"kind": "respond"})
    found = cache.get("k1")
    assert found is not None and found.text == "again"


def test_a_table_of_another_layout_is_refused_when_opened(tmp_path: Path) -> None:
    db = sqlite3.connect(str(tmp_path / CACHE_FILE))
    db.execute("CREATE TABLE responses (key TEXT PRIMARY KEY, text TEXT)")
    db.commit()
    db.close()
    # before: opened, then "OperationalError: no such column: finish_reason" on the first lookup
    with pytest.raises(RunError) as info:
        ResponseCache(tmp_path)
    assert "is not one ipb wrote: its table 'responses' has no column kind, model, finish_reason" in info.value.message
    assert info.value.file == str(tmp_path / CACHE_FILE)
