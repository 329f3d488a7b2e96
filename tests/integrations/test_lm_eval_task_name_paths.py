"""``ipb lm-eval-task --task`` names the task's files, so it is a plain name (break44 #8).

'../escaped' wrote escaped.yaml and escaped.jsonl beside the task folder, outside it; 'bad name/../x' ended in a
FileNotFoundError traceback. Both are now an argument error, raised before anything is read or written.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from ipb.errors import ArgumentError
from ipb.integrations.lm_eval import write_task


@pytest.mark.parametrize("name", ["../escaped", "bad name/../x", ".hidden", "a\\b", ""])
def test_a_task_name_that_is_no_plain_name_is_an_argument_error_and_writes_nothing(tmp_path: Path, name: str) -> None:
    out = tmp_path / "task"
    with pytest.raises(ArgumentError, match="--task"):
        write_task(tmp_path / "items.jsonl", out, task=name)
    assert not out.exists() and sorted(p.name for p in tmp_path.iterdir()) == []
