"""An items file's own card copy edited after the items were made is refused where the card's hash is checked.

Hostile tester, stop 46: ``ipb perturb`` copies a card outside the package beside its items as
``ipb-cards/<sha256>.yaml``. The copy was trusted by its name: after an edit (a threshold of 2/3 changed to 1/3, the
gate names changed), ``ipb score`` and ``ipb respond`` read the edited card without a word, while ``ipb verify``
reported "card(s) edited since the items were made" and 3 of 4 golds wrong, and a card found anywhere else with
another hash was refused (rule ``card-hash``). Now the copy is checked like the others; ``verify`` (current cards
first) still reads it, to report the edit.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from ipb.engine.registry import CARD_COPIES, card_file_sha256, find_card, use_cards
from ipb.errors import LoadError

ROOT = Path(__file__).resolve().parents[2]
GRAHAM = ROOT / "frameworks" / "graham_net_net_screen.yaml"


def _items_with_copy(tmp_path: Path) -> tuple[Path, Path, str]:
    text = GRAHAM.read_text(encoding="utf-8").replace("id: graham_net_net_screen", "id: s46_copy_card", 1)
    draft = tmp_path / "draft.yaml"
    draft.write_text(text, encoding="utf-8")
    sha = card_file_sha256(draft)
    items = tmp_path / "run" / "items.jsonl"
    (items.parent / CARD_COPIES).mkdir(parents=True)
    items.write_text("{}\n", encoding="utf-8")
    copy = items.parent / CARD_COPIES / f"{sha}.yaml"
    draft.rename(copy)
    return items, copy, sha


def test_an_edited_copy_is_refused_at_the_items_hash(tmp_path):
    items, copy, sha = _items_with_copy(tmp_path)
    try:
        use_cards([], items)
        assert find_card("s46_copy_card", sha) == copy  # as written: found
        copy.write_text(copy.read_text(encoding="utf-8").replace("2/3 * ncav", "1/3 * ncav"), encoding="utf-8")
        use_cards([], items)
        with pytest.raises(LoadError) as caught:
            find_card("s46_copy_card", sha)
        assert caught.value.rule == "card-hash"
        assert str(copy) in str(caught.value) and "the items' own copy, edited since" in str(caught.value)
        assert find_card("s46_copy_card", sha, current_first=True) == copy  # verify reads it, to report the edit
    finally:
        use_cards()
