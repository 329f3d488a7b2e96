"""``ipb lm-eval-task`` copies a card's gate names in other languages with the card (s44user).

The task folder took the items' card copies (``ipb-cards/<sha256>.yaml``) but not the translations sidecar beside
each (``<sha256>.translations.yaml``), so wherever lm_eval ran the folder its hooks read a German answer's gates by
the English names only: "Periodenabgrenzungen: erfüllt", the sidecar's name of the accruals gate of a new user's
Beneish card, was no gate (OGRS 0.5, GRA 1/3 on an answer right on both gates); with the sidecar copied, 1.0 and 2/3
(name and verdict right, no element cited: (1 + 1 + 0) / 3 per gate, paper §8.7).
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

from typer.testing import CliRunner

from ipb.cli import app

FIXTURES = Path(__file__).parents[1] / "fixtures" / "new_user44"
CHECK = """
import importlib.util, json, sys
from pathlib import Path
task = Path(sys.argv[1])
spec = importlib.util.spec_from_file_location("ipb_hooks", task / "ipb_hooks.py")
hooks = importlib.util.module_from_spec(spec)
spec.loader.exec_module(hooks)
doc = json.loads((task / "ipb_l7.jsonl").read_text(encoding="utf-8").splitlines()[0])
item = json.loads(doc["item_json"])
word = {"PROCEED": "erfüllt", "REJECT": "nicht erfüllt", "N/A": "entfällt", "INCONCLUSIVE": "offen"}
first, second = item["grp"]["gold_program"]
answer = (f"M-Score: {word[first['verdict']]}.\\nPeriodenabgrenzungen: {word[second['verdict']]}.\\n"
          f"Endgültiges Urteil: {item['investment_verdict']}")
print(json.dumps(hooks.process_results(doc, [answer])))
"""


def test_the_sidecar_travels_with_the_card_and_the_hooks_read_it(tmp_path):
    cards = tmp_path / "cards"
    cards.mkdir()
    for name in ("beneish_m_score_flags.yaml", "beneish_m_score_flags.translations.yaml"):
        shutil.copy(FIXTURES / name, cards / name)
    items = tmp_path / "items" / "items.jsonl"
    made = CliRunner().invoke(app, ["perturb", "--card", str(cards / "beneish_m_score_flags.yaml"), "--base",
                                    str(FIXTURES / "beneish_clean.yaml"), "--n", "1", "--seed", "3", "--ops", "metric",
                                    "--out", str(items)])
    assert made.exit_code == 0, made.output
    out = tmp_path / "task"
    written = CliRunner().invoke(app, ["lm-eval-task", str(items), "--out", str(out)])
    assert written.exit_code == 0, written.output
    sidecars = sorted(p.name for p in (out / "ipb-cards").glob("*.translations.yaml"))
    assert len(sidecars) == 1
    assert (out / "ipb-cards" / sidecars[0]).read_bytes() == (items.parent / "ipb-cards" / sidecars[0]).read_bytes()
    # the folder alone, as lm_eval runs it elsewhere: no items folder, no card folder beside it
    alone = tmp_path / "elsewhere" / "task"
    shutil.copytree(out, alone)
    shutil.rmtree(tmp_path / "items")
    shutil.rmtree(cards)
    proc = subprocess.run([sys.executable, "-c", CHECK, str(alone)], capture_output=True, text=True, timeout=300,
                          cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr[-3000:]
    scores = json.loads(proc.stdout.strip().splitlines()[-1])
    assert scores["ogrs"] == 1.0 and scores["verdict_acc"] == 1.0  # was ogrs 0.5: the accruals gate unread
    assert abs(scores["gra"] - 2 / 3) < 1e-9  # was 1/3
