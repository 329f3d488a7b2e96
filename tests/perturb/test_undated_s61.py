"""An item of a dated base that keeps no date says why in its manifest (s60 new user N12, fixed by s61nfix).

Bug kind: a fact dropped without a word. A default ``ipb perturb --n 200`` of Buffett's card from IPB-P-011
(dated 2024-06-30, macro regime "expansion") wrote 37 items with no date: every one a flip (28) or isolate (9) item
that moved ``macro_regime``, which describes the day (a recession on 2024-06-30 would be a false claim about
history), so it cannot keep the date. The run summary said so, the items did not. Each now carries
``manifest.undated``.
"""

from __future__ import annotations

import collections
import json
from pathlib import Path

from typer.testing import CliRunner

from ipb.cli import app
from ipb.perturb.verify import verify_items

ROOT = Path(__file__).resolve().parents[2]
BASE = ROOT / "frameworks/scenarios/buffett_acquisition_checklist/ipb_p_011_base.yaml"


def test_each_undated_item_of_a_dated_base_records_why(tmp_path):
    out = tmp_path / "items.jsonl"
    result = CliRunner().invoke(app, ["perturb", "--card", "buffett_acquisition_checklist", "--base", str(BASE),
                                      "--n", "200", "--seed", "1", "--out", str(out)])
    assert result.exit_code == 0, result.output
    items = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    undated = [i for i in items if "as_of" not in i["scenario"]]
    dated = [i for i in items if "as_of" in i["scenario"]]
    assert len(undated) + len(dated) == 200
    # the base's date, or a temporal item's own regime date
    assert {i["manifest"]["recipe"] for i in dated if i["scenario"]["as_of"] != "2024-06-30"} <= {"temporal"}
    # the run's own summary counts (the numbers s60's new user met: 37 of 200, 18.5%; 43 since s64range's
    # business-model range rule refused the 26 items that stated subscription software outside its 60-90% gross
    # margin, 20 isolate, 4 metric, 2 flip: 148 items stay byte-identical, 1 differs only in manifest.attempt and
    # the 51 redrawn break no rule; 52 since stop 65: against 703cd00f's run, 162 ids in common differ only in the
    # condition-B knowledge hash (s65review edited Buffett's repurchase card) and one also in its manifest; of the 38
    # others (23 flip, 10 isolate, 5 metric) 25 break s65sector's sectors/sector_range or another card rule, as this
    # ipb's verify of the old file reports, and 13 are redrawn; 23 of the 38 new ones are undated, 14 of the old)
    assert collections.Counter(i["manifest"]["recipe"] for i in undated) == {"flip": 39, "isolate": 13}
    for item in undated:
        assert item["manifest"]["undated"] == "macro_regime moved (it describes the day)"
        assert item["scenario"]["facts"]["macro_regime"] != "expansion"  # the base's regime on its date
        assert item["manifest"]["context"]["as_of"] is None and "Decision date" not in item["question"]
    assert not [i for i in dated if "undated" in i["manifest"]]
    assert verify_items(out).ok  # the item schema takes the new key
