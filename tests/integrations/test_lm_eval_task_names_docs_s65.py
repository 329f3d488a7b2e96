"""The docs name the lm-eval task of L8 items ``ipb_l8`` (s65 new user F7).

README's command table and docs/integrations.md gave ``--tasks ipb_l7`` for every items file; for L8 items
``ipb lm-eval-task`` writes ``ipb_l8.yaml`` and ``--tasks ipb_l7`` ends in lm_eval's "Tasks not found". The tool's
own default (:func:`ipb.integrations.lm_eval` task naming) and the docs must agree.
"""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_readme_lm_eval_row_names_the_l8_task() -> None:
    row = next(line for line in (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
               if line.startswith("| `ipb lm-eval-task"))
    assert "--tasks ipb_l7" in row and "--tasks ipb_l8` for L8 items" in row


def test_integrations_doc_names_the_l8_task() -> None:
    text = (ROOT / "docs" / "integrations.md").read_text(encoding="utf-8")
    assert "`ipb_l8`\n  for L8 items (`--tasks ipb_l8`" in text
    assert "samples_ipb_l8_<stamp>.jsonl" in text
