"""s51break: a gzip'd items file given by mistake was told only that it "is not valid UTF-8".

``ipb score`` already named the compression (s47break); ``ipb verify it.jsonl.gz`` said ``it.jsonl.gz is not
valid UTF-8`` and ``ipb respond -i it.jsonl.gz`` said ``items file is not UTF-8 text (invalid start byte)``. Both
now say the file is compressed and how to unpack it; a file that is merely not UTF-8 keeps the old message.
"""

from __future__ import annotations

import bz2
import gzip
from pathlib import Path

import pytest

from ipb.errors import LoadError
from ipb.perturb.verify import verify_items
from ipb.respond.records import load_items

LINE = b'{"id": "x", "question": "q"}\n'


@pytest.mark.parametrize("pack, name, command", [(gzip.compress, "gzip", "gunzip -k"),
                                                 (bz2.compress, "bzip2", "bunzip2 -k")])
def test_verify_names_the_compression(tmp_path: Path, pack, name: str, command: str) -> None:
    path = tmp_path / "it.jsonl.z"
    path.write_bytes(pack(LINE * 3))
    with pytest.raises(LoadError) as caught:
        verify_items(path)
    assert f"is compressed ({name})" in str(caught.value)
    assert f"({command} {path})" in str(caught.value)


def test_respond_items_names_the_compression(tmp_path: Path) -> None:
    path = tmp_path / "it.jsonl.gz"
    path.write_bytes(gzip.compress(LINE))
    with pytest.raises(LoadError) as caught:
        load_items(path)
    assert f"is compressed (gzip), not JSON Lines text: unpack it first (gunzip -k {path})" in str(caught.value)


def test_latin1_is_still_only_not_utf8(tmp_path: Path) -> None:
    path = tmp_path / "lat.jsonl"
    path.write_bytes(b'\xe9' + LINE)
    for read in (verify_items, load_items):
        with pytest.raises(LoadError) as caught:
            read(path)
        assert "UTF-8" in str(caught.value) and "compressed" not in str(caught.value)
